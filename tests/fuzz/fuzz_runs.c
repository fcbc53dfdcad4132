/* fuzz_runs.c: one run-usage record (importers/runs_jsonl.h, sb_run_parse).
 *
 * The input is one line.  A record is accepted or rejected with a reason
 * (never an internal error on its own); an accepted one keeps the rules
 * of docs/formats-runs.md (a non-empty run_id of at most 256 bytes, a
 * backend id, ended_at not before started_at, no negative counter or
 * amount but durations (clock skew is kept: a negative total only where
 * the executions listed account for it), aggregates that agree with the
 * executions when all are listed and are not exceeded by them when only
 * some are), and parsing it again gives the same fingerprint.
 */
#include <string.h>

#include "importers/runs_jsonl.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static sb_run_parser *p;
	const char *text = (const char *)data;
	char fingerprint[65];
	sb_run run;
	sb_err e;
	int rc;

	if (p == NULL && (p = sb_run_parser_new()) == NULL)
		abort();
	sb_err_clear(&e);
	rc = sb_run_parse(p, text, size, &run, &e);
	FUZZ_CHECK(rc == SB_OK || rc == SB_EDATA);
	FUZZ_CHECK(rc == e.code);
	if (rc != SB_OK) {
		FUZZ_CHECK(e.msg[0] != '\0');
		return 0;
	}
	FUZZ_CHECK(run.run_id != NULL && strlen(run.run_id) >= 1 && strlen(run.run_id) <= 256);
	FUZZ_CHECK(sb_backend_id_valid(run.backend));
	FUZZ_CHECK(!run.has_ended || run.ended_ms >= run.started_ms);
	FUZZ_CHECK(run.exec_count >= 0 && (run.total_duration_ms >= 0 || run.n_execs > 0) && run.cpu_ms >= 0 &&
	           run.memory_peak_mb >= 0 && run.bytes_read >= 0 && run.bytes_written >= 0 &&
	           run.computed_nanos >= 0 && run.input_tokens >= 0 && run.output_tokens >= 0);
	FUZZ_CHECK(!run.has_billed || run.billed_nanos >= 0);
	FUZZ_CHECK(!run.has_budget || run.budget_nanos >= 0);
	if (run.n_execs > 0) {
		int64_t duration = 0, peak = 0;
		FUZZ_CHECK(run.exec_count >= (int64_t)run.n_execs);
		for (size_t i = 0; i < run.n_execs; i++) {
			FUZZ_CHECK(!run.execs[i].has_cost || run.execs[i].cost_nanos >= 0);
			duration += run.execs[i].duration_ms;
			if (run.execs[i].memory_peak_mb > peak)
				peak = run.execs[i].memory_peak_mb;
		}
		if (run.exec_count == (int64_t)run.n_execs)
			FUZZ_CHECK(duration == run.total_duration_ms && peak == run.memory_peak_mb);
		else
			FUZZ_CHECK(peak <= run.memory_peak_mb);
	}
	for (size_t i = 0; i < run.n_tags; i++)
		FUZZ_CHECK(run.tags[i].name[0] != '\0' && run.tags[i].value != NULL);
	FUZZ_CHECK(strlen(run.fingerprint) == 64);
	memcpy(fingerprint, run.fingerprint, sizeof fingerprint);
	sb_err_clear(&e);
	FUZZ_CHECK(sb_run_parse(p, text, size, &run, &e) == SB_OK);
	FUZZ_CHECK(strcmp(fingerprint, run.fingerprint) == 0);
	return 0;
}
