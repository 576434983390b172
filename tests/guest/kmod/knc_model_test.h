/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KNC_MODEL_TEST_H
#define _KNC_MODEL_TEST_H

/*
 * knc_model_test.c's interrupt and exception handlers, in assembly, for
 * the handler_invocations rule (ENDBR and IRET) and the
 * faulting_instructions rule (#UD and #GP: back past the faulting
 * instruction). Not callable.
 */
void knc_model_test_iret(void);
void knc_model_test_ud(void);
void knc_model_test_gp(void);

#endif /* _KNC_MODEL_TEST_H */
