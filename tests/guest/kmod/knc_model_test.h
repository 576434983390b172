/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KNC_MODEL_TEST_H
#define _KNC_MODEL_TEST_H

/*
 * knc_model_test.c's interrupt handler, in assembly: ENDBR and IRET, for
 * the handler_invocations rule. Not callable.
 */
void knc_model_test_iret(void);

#endif /* _KNC_MODEL_TEST_H */
