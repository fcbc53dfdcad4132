/* lines.c: the billing line writer (see lines.h). */
#include "ledger/lines.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

struct sb_line_writer {
	sb_db *db;                 /* the ledger */
	const char *format;        /* the lines' format (borrowed) */
	int64_t batch_id;          /* the batch being imported */
	sqlite3_stmt *insert;      /* sql/queries/billing_line_insert.sql */
};

int sb_line_writer_new(sb_db *db, const char *format, int64_t batch_id,
                       sb_line_writer **out, sb_err *e)
{
	sb_line_writer *w = calloc(1, sizeof *w);

	*out = NULL;
	if (w == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	w->db = db;
	w->format = format;
	w->batch_id = batch_id;
	if ((w->insert = sb_db_stmt(db, "billing_line_insert", e)) == NULL) {
		free(w);
		return e->code;
	}
	*out = w;
	return SB_OK;
}

void sb_line_writer_free(sb_line_writer *w)
{
	free(w);
}

/* Feed an optional integer to the hash: a presence byte, then 8 bytes. */
static void hash_i64(EVP_MD_CTX *sha, bool has, int64_t v)
{
	unsigned char b[9];

	b[0] = has ? 1 : 0;
	for (int i = 0; i < 8; i++)
		b[1 + i] = (unsigned char)((uint64_t)v >> (8 * i));
	EVP_DigestUpdate(sha, b, has ? sizeof b : 1);
}

/* Feed an optional string to the hash: presence and length, then bytes. */
static void hash_str(EVP_MD_CTX *sha, const char *s)
{
	size_t len = s != NULL ? strlen(s) : 0;

	hash_i64(sha, s != NULL, (int64_t)len);
	if (s != NULL)
		EVP_DigestUpdate(sha, s, len);
}

bool sb_line_hash(const sb_bill_line *line, char key[SB_LINE_KEY_HEX])
{
	static const char hex[] = "0123456789abcdef";
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int md_len = 0;
	EVP_MD_CTX *sha = EVP_MD_CTX_new();

	memset(key, '0', SB_LINE_KEY_HEX - 1);
	key[SB_LINE_KEY_HEX - 1] = '\0';
	if (sha == NULL || EVP_DigestInit_ex(sha, EVP_sha256(), NULL) != 1) {
		EVP_MD_CTX_free(sha);
		return false;
	}
	hash_str(sha, line->backend);
	hash_str(sha, line->session_id);
	hash_i64(sha, true, line->start_ms);
	hash_i64(sha, true, line->end_ms);
	hash_i64(sha, true, line->kind);
	hash_i64(sha, line->has_amount, line->amount_nanos);
	hash_str(sha, line->currency);
	hash_str(sha, line->category);
	hash_i64(sha, true, line->correction);
	hash_str(sha, line->quantity);
	hash_str(sha, line->unit);
	hash_i64(sha, line->has_metered, line->vcpu_ms);
	hash_i64(sha, line->has_metered, line->memory_mb_ms);
	hash_i64(sha, line->has_list_cost, line->list_cost_nanos);
	hash_i64(sha, line->has_effective_cost, line->effective_cost_nanos);
	hash_str(sha, line->invoice_id);
	hash_str(sha, line->tags);
	hash_str(sha, line->extra);
	if (EVP_DigestFinal_ex(sha, md, &md_len) != 1 || md_len != 32) {
		EVP_MD_CTX_free(sha);
		return false;
	}
	EVP_MD_CTX_free(sha);
	for (unsigned int i = 0; i < md_len; i++) {
		key[2 * i] = hex[md[i] >> 4];
		key[2 * i + 1] = hex[md[i] & 15];
	}
	return true;
}

int sb_line_store(sb_line_writer *w, const sb_bill_line *line, int64_t line_no,
                  const void *source, size_t source_len, bool *stored, sb_err *e)
{
	sb_db *db = w->db;
	sqlite3_stmt *st = w->insert;
	char key[SB_LINE_KEY_HEX];
	bool metered = line->kind == SB_LINE_METERED;

	*stored = false;
	if (line->backend == NULL || line->backend[0] == '\0' || line->currency == NULL ||
	    line->end_ms < line->start_ms || metered == line->has_amount ||
	    (metered && !line->has_metered))
		return sb_fail(e, SB_EINTERNAL, "format %s made a line that breaks the ledger's rules (line %lld)",
		               w->format, (long long)line_no);
	if (line->line_key == NULL && !sb_line_hash(line, key))
		return sb_fail(e, SB_EINTERNAL, "out of memory (hashing line %lld)", (long long)line_no);
	sb_bind_text(db, st, ":format", w->format);
	sb_bind_text(db, st, ":line_key", line->line_key != NULL ? line->line_key : key);
	sb_bind_i64(db, st, ":batch_id", w->batch_id);
	sb_bind_i64(db, st, ":line_no", line_no);
	sb_bind_text(db, st, ":backend", line->backend);
	sb_bind_text_opt(db, st, ":session_id", line->session_id);
	sb_bind_i64(db, st, ":start_ms", line->start_ms);
	sb_bind_i64(db, st, ":end_ms", line->end_ms);
	sb_bind_text(db, st, ":kind", metered ? "metered" : "billed");
	sb_bind_i64_opt(db, st, ":amount_nanos", line->has_amount, line->amount_nanos);
	sb_bind_text(db, st, ":currency", line->currency);
	sb_bind_text_opt(db, st, ":category", line->category);
	sb_bind_i64(db, st, ":correction", line->correction ? 1 : 0);
	sb_bind_text_opt(db, st, ":quantity", line->quantity);
	sb_bind_text_opt(db, st, ":unit", line->unit);
	sb_bind_i64_opt(db, st, ":vcpu_ms", line->has_metered, line->vcpu_ms);
	sb_bind_i64_opt(db, st, ":memory_mb_ms", line->has_metered, line->memory_mb_ms);
	sb_bind_i64_opt(db, st, ":list_cost_nanos", line->has_list_cost, line->list_cost_nanos);
	sb_bind_i64_opt(db, st, ":effective_cost_nanos", line->has_effective_cost,
	                line->effective_cost_nanos);
	sb_bind_text_opt(db, st, ":invoice_id", line->invoice_id);
	sb_bind_text_opt(db, st, ":tags", line->tags);
	sb_bind_text_opt(db, st, ":extra", line->extra);
	sb_bind_blob(db, st, ":source_row", source_len > 0 ? source : "", source_len);
	if (sb_db_run(db, st, e) != SB_OK)
		return e->code;
	*stored = sqlite3_changes(sb_db_handle(db)) > 0;
	return SB_OK;
}

int sb_lines_supersede(sb_db *db, const char *format, const char *backend, int64_t from_ms,
                       int64_t to_ms, int64_t batch_id, int64_t *count, sb_err *e)
{
	sqlite3_stmt *st = sb_db_stmt(db, "billing_line_supersede", e);

	*count = 0;
	if (st == NULL)
		return e->code;
	sb_bind_i64(db, st, ":batch_id", batch_id);
	sb_bind_text(db, st, ":format", format);
	sb_bind_text(db, st, ":backend", backend);
	sb_bind_i64(db, st, ":from_ms", from_ms);
	sb_bind_i64(db, st, ":to_ms", to_ms);
	if (sb_db_run(db, st, e) != SB_OK)
		return e->code;
	*count = sqlite3_changes(sb_db_handle(db));
	return SB_OK;
}
