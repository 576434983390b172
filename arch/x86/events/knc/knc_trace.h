/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Knights Corner core PMU: tracepoints (perf record -e knc:knc_pmi ...).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM knc

#if !defined(_KNC_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _KNC_TRACE_H

#include <linux/tracepoint.h>

/* A PMI of ours: the counters that overflowed (GLOBAL_STATUS bits). */
TRACE_EVENT(knc_pmi,
	TP_PROTO(u64 status),
	TP_ARGS(status),
	TP_STRUCT__entry(
		__field(u64, status)
	),
	TP_fast_assign(
		__entry->status = status;
	),
	TP_printk("status=%#llx", __entry->status)
);

/*
 * A counter started (its EvtSel written with EN, counting from @counter)
 * or stopped (EvtSel written without EN; @counter is its value then).
 */
DECLARE_EVENT_CLASS(knc_counter,
	TP_PROTO(unsigned int idx, u64 evtsel, u64 counter),
	TP_ARGS(idx, evtsel, counter),
	TP_STRUCT__entry(
		__field(unsigned int, idx)
		__field(u64, evtsel)
		__field(u64, counter)
	),
	TP_fast_assign(
		__entry->idx = idx;
		__entry->evtsel = evtsel;
		__entry->counter = counter;
	),
	TP_printk("counter=%u evtsel=%#llx value=%#llx",
		  __entry->idx, __entry->evtsel, __entry->counter)
);

DEFINE_EVENT(knc_counter, knc_counter_start,
	TP_PROTO(unsigned int idx, u64 evtsel, u64 counter),
	TP_ARGS(idx, evtsel, counter)
);

DEFINE_EVENT(knc_counter, knc_counter_stop,
	TP_PROTO(unsigned int idx, u64 evtsel, u64 counter),
	TP_ARGS(idx, evtsel, counter)
);

#endif /* _KNC_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE knc_trace
#include <trace/define_trace.h>
