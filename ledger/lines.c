/* lines.c: the billing line writer (see lines.h). */
#include "ledger/lines.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "ledger/names.h"
#include "ledger/quote.h"

enum {
	REACH_CACHE = 32,          /* backends whose reach is remembered */
	SEEN_BITS = 1 << 23,       /* bits of the filter of row hashes counted (1 MiB) */
	SEEN_PROBES = 4,           /* bits a row hash sets in it */
	HELD_BITS = 1 << 18        /* bits of the filter of keys and row hashes held (32 KiB) */
};

/* What the live lines of one backend of the writer's format span before
 * the import (lines of other batches do not change during it: the
 * import holds the writers' lock from its start to its end). */
typedef struct reach {
	char backend[65];          /* backend id */
	int64_t ms;                /* the longest end - start */
	bool others;               /* other batches hold live lines of it: */
	int64_t lo, hi;            /* the earliest start among those, the latest end (a
	                              zero-length line's a millisecond after its start) */
} reach;

struct sb_line_writer {
	sb_db *db;                 /* the ledger */
	const char *format;        /* the lines' format (borrowed) */
	int64_t batch_id;          /* the batch being imported */
	sb_line_writer_opts o;     /* pending, loose identity */
	reach reaches[REACH_CACHE]; /* reach per backend, the first REACH_CACHE seen */
	size_t n_reaches;          /* used */
	int64_t stored;            /* lines stored */
	int64_t analyze_at;        /* the count at which the planner is told of them next */
	bool id_known;             /* next_id holds in this transaction */
	int64_t next_id;           /* then: the row id (lid, pid) of the next line stored */
	/* A Bloom filter of the row hashes the batch has counted: a hash it
	 * does not hold is the first of its file, counted without asking the
	 * ledger; one it holds (or a false positive) asks (ordinal_key). */
	unsigned char *seen;       /* SEEN_BITS bits */
	/* A Bloom filter of the line keys and row hashes the writer has
	 * stored since it last had the COPY rows held sent (sb_db_step_past):
	 * a look-up of one it may hold sends them first (held_look). */
	unsigned char *held;       /* HELD_BITS bits */
	bool any_held;             /* held is not all zeros */
};

/* Lines stored before the planner is first told of them (sb_db_analyze),
 * then at each doubling: a handful of ANALYZEs on PostgreSQL, however long
 * the import. */
enum { ANALYZE_FIRST = 64 };

/* The SEEN_PROBES bits of the filter a hex row hash names: 24 bits of
 * it each, taken in turn from its start. */
static void seen_bits(const char *row_hash, uint32_t bits[SEEN_PROBES])
{
	for (int i = 0; i < SEEN_PROBES; i++) {
		uint32_t v = 0;
		for (int j = 0; j < 6; j++) {
			char c = row_hash[6 * i + j];
			v = v << 4 | (uint32_t)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
		}
		bits[i] = v & (SEEN_BITS - 1);
	}
}

/* Whether every one of bits is set in the filter f (false: what names
 * them was surely never added). */
static bool bits_all_set(const unsigned char *f, const uint32_t bits[SEEN_PROBES])
{
	for (int i = 0; i < SEEN_PROBES; i++)
		if (!(f[bits[i] >> 3] & (1u << (bits[i] & 7))))
			return false;
	return true;
}

/* Set bits in the filter f. */
static void bits_set(unsigned char *f, const uint32_t bits[SEEN_PROBES])
{
	for (int i = 0; i < SEEN_PROBES; i++)
		f[bits[i] >> 3] |= (unsigned char)(1u << (bits[i] & 7));
}

/* What a text in the held filter is: a line key (of billing_line or
 * billing_line_pending) or a row hash (of billing_row_seen). */
enum held_kind { HELD_KEY = 'k', HELD_ROW = 'r' };

/* The SEEN_PROBES bits of the held filter a text of kind names: FNV-1a's
 * 64 bits of the kind and the text, mixed 16 bits at a time. */
static void held_bits(enum held_kind kind, const char *text, uint32_t bits[SEEN_PROBES])
{
	uint64_t h = (14695981039346656037u ^ (uint64_t)kind) * 1099511628211u;

	for (const unsigned char *p = (const unsigned char *)text; *p != '\0'; p++)
		h = (h ^ *p) * 1099511628211u;
	for (int i = 0; i < SEEN_PROBES; i++)
		bits[i] = (uint32_t)((h >> (16 * i)) * 0x9e3779b9u + (h >> 32)) & (HELD_BITS - 1);
}

/* Note text of kind stored in a row that may be held. */
static void held_add(sb_line_writer *w, enum held_kind kind, const char *text)
{
	uint32_t bits[SEEN_PROBES];

	held_bits(kind, text, bits);
	bits_set(w->held, bits);
	w->any_held = true;
}

/* The rows held were sent: nothing is held. */
static void held_clear(sb_line_writer *w)
{
	if (w->any_held)
		memset(w->held, 0, HELD_BITS / 8);
	w->any_held = false;
}

/* Step st, a look-up of text of kind in a table whose rows the writer
 * may hold: past the rows held unless text may be among them, which are
 * then sent first. */
static int held_look(sb_line_writer *w, sb_stmt *st, enum held_kind kind, const char *text, sb_err *e)
{
	uint32_t bits[SEEN_PROBES];

	if (w->any_held) {
		held_bits(kind, text, bits);
		if (bits_all_set(w->held, bits)) {
			if (sb_db_flush(w->db, e) != SB_OK) {
				sb_stmt_reset(st);
				return -1;
			}
			held_clear(w);
		}
	}
	return sb_db_step_past(w->db, st, e);
}

/* Fill the filter with the row hashes the batch has counted (none but
 * for a resumed batch). */
static int seen_load(sb_line_writer *w, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(w->db, "billing_row_seen_hashes", e);
	int rc;

	if (st == NULL)
		return e->code;
	sb_bind_i64(w->db, st, ":batch_id", w->batch_id);
	while ((rc = sb_db_step(w->db, st, e)) == SB_ROW) {
		const char *row_hash = sb_col_text(st, 0);
		uint32_t bits[SEEN_PROBES];
		if (row_hash == NULL || strlen(row_hash) != SB_LINE_KEY_HEX - 1 ||
		    strspn(row_hash, "0123456789abcdef") != SB_LINE_KEY_HEX - 1) {
			sb_stmt_reset(st);
			return sb_fail(e, SB_EDATA, "the ledger's billing_row_seen holds a row hash that is not 64 hex digits (batch %lld)",
			               (long long)w->batch_id);
		}
		seen_bits(row_hash, bits);
		bits_set(w->seen, bits);
	}
	sb_stmt_reset(st);
	return rc < 0 ? e->code : SB_OK;
}

int sb_line_writer_new(sb_db *db, const char *format, int64_t batch_id,
                       const sb_line_writer_opts *o, sb_line_writer **out, sb_err *e)
{
	sb_line_writer *w = calloc(1, sizeof *w);

	*out = NULL;
	if (w == NULL || (w->seen = calloc(SEEN_BITS / 8, 1)) == NULL ||
	    (w->held = calloc(HELD_BITS / 8, 1)) == NULL) {
		sb_line_writer_free(w);
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	}
	w->db = db;
	w->format = format;
	w->batch_id = batch_id;
	w->o = *o;
	w->analyze_at = ANALYZE_FIRST;
	if (seen_load(w, e) != SB_OK) {
		sb_line_writer_free(w);
		return e->code;
	}
	*out = w;
	return SB_OK;
}

void sb_line_writer_free(sb_line_writer *w)
{
	if (w != NULL) {
		free(w->seen);
		free(w->held);
	}
	free(w);
}

void sb_line_writer_forget(sb_line_writer *w)
{
	w->id_known = false;
	held_clear(w);
}

/* The names of the kinds, by their enum. */
static const char *const kind_names[] = {
	[SB_LINE_BILLED] = "billed",
	[SB_LINE_METERED] = "metered",
};

const char *sb_line_kind_name(sb_line_kind kind)
{
	return kind_names[kind];
}

int sb_line_kind_parse(const char *name, sb_line_kind *out, sb_err *e)
{
	int i = 0;

	if (sb_name_parse(SB_NAMES(kind_names), "a billing line kind", name, &i, e) != SB_OK)
		return e->code;
	*out = (sb_line_kind)i;
	return SB_OK;
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

/* Bind name in st when st has it (the statements of this file share the
 * line's parameters but not all of them). */
static bool has_param(sb_stmt *st, const char *name)
{
	return sb_stmt_has_param(st, name);
}

/* Bind the line's columns that st names, with key as its line key. */
static void bind_line(sb_line_writer *w, sb_stmt *st, const sb_bill_line *line,
                      const char *key, int64_t line_no, const void *source, size_t source_len)
{
	sb_db *db = w->db;

	sb_bind_text(db, st, ":format", w->format);
	sb_bind_text(db, st, ":line_key", key);
	if (has_param(st, ":batch_id"))
		sb_bind_i64(db, st, ":batch_id", w->batch_id);
	if (has_param(st, ":line_no"))
		sb_bind_i64(db, st, ":line_no", line_no);
	if (has_param(st, ":lid"))
		sb_bind_i64(db, st, ":lid", w->next_id);
	if (has_param(st, ":pid"))
		sb_bind_i64(db, st, ":pid", w->next_id);
	sb_bind_text(db, st, ":backend", line->backend);
	sb_bind_text_opt(db, st, ":session_id", line->session_id);
	sb_bind_i64(db, st, ":start_ms", line->start_ms);
	sb_bind_i64(db, st, ":end_ms", line->end_ms);
	sb_bind_text(db, st, ":kind", sb_line_kind_name(line->kind));
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
	if (has_param(st, ":source_row"))
		sb_bind_blob(db, st, ":source_row", source_len > 0 ? source : "", source_len);
	if (has_param(st, ":charge_identity"))
		sb_bind_text_opt(db, st, ":charge_identity", line->identity);
}

/* The key of a line without an id of its own, into key: its hash for the
 * first row of the batch's file with that content, else the SHA-256 of
 * the hash, '#' and the row's ordinal among those rows (1, 2, ...).  The
 * row is counted either way (billing_row_seen): a hash not in the filter
 * is the first, counted without waiting; else the ledger counts it and
 * says how many came before. */
static int ordinal_key(sb_line_writer *w, const sb_bill_line *line, char key[SB_LINE_KEY_HEX],
                       int64_t line_no, sb_err *e)
{
	sb_db *db = w->db;
	sb_stmt *st;
	char text[SB_LINE_KEY_HEX + 24];
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int md_len = 0;
	uint32_t bits[SEEN_PROBES];
	int64_t seen = 0;
	int rc;

	if (!sb_line_hash(line, key))
		return sb_fail(e, SB_EINTERNAL, "out of memory (hashing line %lld)", (long long)line_no);
	seen_bits(key, bits);
	if (!bits_all_set(w->seen, bits)) {
		if ((st = sb_db_stmt(db, "billing_row_seen_first", e)) == NULL)
			return e->code;
		bits_set(w->seen, bits);
		held_add(w, HELD_ROW, key);
		sb_bind_i64(db, st, ":batch_id", w->batch_id);
		sb_bind_text(db, st, ":row_hash", key);
		sb_bind_i64(db, st, ":seen", 1);
		return sb_db_run_later(db, st, e);
	}
	if ((st = sb_db_stmt(db, "billing_row_seen_next", e)) == NULL)
		return e->code;
	sb_bind_i64(db, st, ":batch_id", w->batch_id);
	sb_bind_text(db, st, ":row_hash", key);
	rc = held_look(w, st, HELD_ROW, key, e);
	if (rc == SB_ROW)
		seen = sb_col_i64(st, 0);
	sb_stmt_reset(st);
	if (rc != SB_ROW)
		return rc < 0 ? e->code : sb_fail(e, SB_EINTERNAL, "counting identical rows gave no count");
	if (seen <= 1)
		return SB_OK;
	snprintf(text, sizeof text, "%s#%lld", key, (long long)(seen - 1));
	if (EVP_Digest(text, strlen(text), md, &md_len, EVP_sha256(), NULL) != 1 || md_len != 32)
		return sb_fail(e, SB_EINTERNAL, "out of memory (hashing line %lld)", (long long)line_no);
	for (unsigned int i = 0; i < md_len; i++)
		snprintf(key + 2 * i, 3, "%02x", md[i]);
	return SB_OK;
}

/* What the live lines of the writer's format and backend span, into *r
 * (cached for the first REACH_CACHE backends). */
static int reach_of(sb_line_writer *w, const char *backend, reach *r, sb_err *e)
{
	sb_stmt *st;
	int rc;

	for (size_t i = 0; i < w->n_reaches; i++) {
		if (strcmp(w->reaches[i].backend, backend) == 0) {
			*r = w->reaches[i];
			return SB_OK;
		}
	}
	if ((st = sb_db_stmt(w->db, "billing_line_reach", e)) == NULL)
		return e->code;
	sb_bind_text(w->db, st, ":format", w->format);
	sb_bind_text(w->db, st, ":backend", backend);
	sb_bind_i64(w->db, st, ":batch_id", w->batch_id);
	/* the rows held are the batch's own, which no look-up of the same
	 * charge reads */
	rc = sb_db_step_past(w->db, st, e);
	memset(r, 0, sizeof *r);
	if (rc == SB_ROW) {
		r->ms = sb_col_i64(st, 0);
		r->others = !sb_col_is_null(st, 1) && !sb_col_is_null(st, 2);
		r->lo = r->others ? sb_col_i64(st, 1) : 0;
		r->hi = r->others ? sb_col_i64(st, 2) : 0;
	}
	sb_stmt_reset(st);
	if (rc < 0)
		return e->code;
	if (w->n_reaches < REACH_CACHE && strlen(backend) < sizeof r->backend) {
		snprintf(r->backend, sizeof r->backend, "%s", backend);
		w->reaches[w->n_reaches++] = *r;
	}
	return SB_OK;
}

/* The line holding key, live (or pending in w's batch): r->outcome
 * DUPLICATE or CONFLICT with its batch and line when there is one, else
 * left as it was. */
static int find_key(sb_line_writer *w, const sb_bill_line *line, const char *key,
                    sb_line_stored *r, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(w->db, w->o.pending ? "billing_line_key_pending" :
	                                                    "billing_line_key_live", e);
	int rc;

	if (st == NULL)
		return e->code;
	bind_line(w, st, line, key, 0, NULL, 0);
	rc = held_look(w, st, HELD_KEY, key, e);
	if (rc == SB_ROW) {
		r->batch_id = sb_col_i64(st, 0);
		r->outcome = sb_col_int(st, 1) ? SB_LINE_DUPLICATE : SB_LINE_CONFLICT;
		r->line_no = sb_col_i64(st, 2);
	}
	sb_stmt_reset(st);
	return rc < 0 ? e->code : SB_OK;
}

/* A live line of another batch that is the same charge as line: r->outcome
 * SAME_CHARGE and its batch when there is one. */
static int find_same_charge(sb_line_writer *w, const sb_bill_line *line, const char *key,
                            sb_line_stored *r, sb_err *e)
{
	/* the query's case by which of the two the line has (ledger/db.h):
	 * [session][identity] */
	static const char *const cases[2][2] = {
		{"billing_line_same_charge.with_neither", "billing_line_same_charge.with_identity"},
		{"billing_line_same_charge.with_session", "billing_line_same_charge.with_session_identity"}};
	sb_stmt *st;
	reach span;
	int64_t end = line->end_ms > line->start_ms ? line->end_ms : line->start_ms + 1;
	int rc;

	if (line->correction)
		return SB_OK;   /* a correction adds to the charge it corrects */
	if (reach_of(w, line->backend, &span, e) != SB_OK)
		return e->code;
	/* no other batch's line of the backend overlaps it: none is the same
	 * charge (the query's overlap, at the span's ends) */
	if (!span.others || span.lo >= end || span.hi <= line->start_ms)
		return SB_OK;
	if ((st = sb_db_stmt(w->db, cases[line->session_id != NULL][line->identity != NULL], e)) == NULL)
		return e->code;
	sb_bind_text(w->db, st, ":format", w->format);
	sb_bind_text(w->db, st, ":backend", line->backend);
	sb_bind_text_opt(w->db, st, ":session_id", line->session_id);
	sb_bind_i64(w->db, st, ":start_ms", line->start_ms);
	sb_bind_i64(w->db, st, ":end_ms", line->end_ms);
	sb_bind_i64(w->db, st, ":reach", span.ms);
	sb_bind_i64(w->db, st, ":batch_id", w->batch_id);
	sb_bind_text_opt(w->db, st, ":category", line->category);
	sb_bind_text_opt(w->db, st, ":charge_identity", line->identity);
	sb_bind_i64(w->db, st, ":loose", w->o.loose_identity ? 1 : 0);
	sb_bind_text(w->db, st, ":line_key", key);
	/* other batches' lines only: past the rows held, all of this batch */
	rc = sb_db_step_past(w->db, st, e);
	if (rc == SB_ROW && !sb_col_is_null(st, 0)) {
		r->outcome = SB_LINE_SAME_CHARGE;
		r->batch_id = sb_col_i64(st, 0);
	}
	sb_stmt_reset(st);
	return rc < 0 ? e->code : SB_OK;
}

int sb_line_store(sb_line_writer *w, const sb_bill_line *line, int64_t line_no,
                  const void *source, size_t source_len, sb_line_stored *r, sb_err *e)
{
	sb_db *db = w->db;
	sb_stmt *st;
	bool metered = line->kind == SB_LINE_METERED;
	const char *key = line->line_key;

	memset(r, 0, sizeof *r);
	r->outcome = SB_LINE_STORED;
	if (line->backend == NULL || line->backend[0] == '\0' || line->currency == NULL ||
	    line->end_ms < line->start_ms || metered == line->has_amount ||
	    (metered && !line->has_metered))
		return sb_fail(e, SB_EINTERNAL, "format %s made a line that breaks the ledger's rules (line %lld)",
		               w->format, (long long)line_no);
	/* the key first: a line holding it is this one (a duplicate) or a
	 * conflict, before any other line can be the same charge */
	if (key == NULL) {
		if (ordinal_key(w, line, r->key, line_no, e) != SB_OK)
			return e->code;
		key = r->key;
	}
	if (find_key(w, line, key, r, e) != SB_OK)
		return e->code;
	if (r->outcome != SB_LINE_STORED)
		return SB_OK;
	if (!w->o.pending && find_same_charge(w, line, key, r, e) != SB_OK)
		return e->code;
	if (r->outcome != SB_LINE_STORED)
		return SB_OK;
	if (!w->id_known) {
		if (sb_db_one_i64(db, w->o.pending ? "billing_line_pending_pid_next" : "billing_line_lid_next",
		                  &w->next_id, e) != SB_OK)
			return e->code;
		w->id_known = true;
	}
	st = sb_db_stmt(db, w->o.pending ? "billing_line_pending_insert" : "billing_line_insert", e);
	if (st == NULL)
		return e->code;
	bind_line(w, st, line, key, line_no, source, source_len);
	/* its outcome read at the next statement that waits (the next line's
	 * look-ups, the commit): a key taken meanwhile is an error there */
	if (sb_db_run_later(db, st, e) != SB_OK)
		return e->code;
	w->next_id++;
	held_add(w, HELD_KEY, key);
	/* the look-ups of the next lines search the table as it now is */
	if (++w->stored == w->analyze_at) {
		w->analyze_at *= 2;
		if (sb_db_flush(db, e) != SB_OK)
			return e->code;
		held_clear(w);
		return sb_db_analyze(db, w->o.pending ? "billing_line_pending" : "billing_line", e);
	}
	return SB_OK;
}

/* A length of sb_line_writer_finish's check as words, into buf (-1: a
 * calendar month). */
static const char *length_text(int64_t ms, char *buf, size_t cap)
{
	if (ms == -1)
		snprintf(buf, cap, "a calendar month");
	else if (ms % 86400000 == 0)
		snprintf(buf, cap, "%lld day%s", (long long)(ms / 86400000), ms == 86400000 ? "" : "s");
	else if (ms % 3600000 == 0)
		snprintf(buf, cap, "%lld hour%s", (long long)(ms / 3600000), ms == 3600000 ? "" : "s");
	else
		snprintf(buf, cap, "%lld.%03lld s", (long long)(ms / 1000), (long long)(ms % 1000));
	return buf;
}

/* Run st (bound to the batch and format) and add its changes to *count. */
static int supersede_run(sb_line_writer *w, sb_stmt *st, int64_t *count, sb_err *e)
{
	if (sb_db_run(w->db, st, e) != SB_OK)
		return e->code;
	*count += sb_db_changes(w->db);
	return SB_OK;
}

/* Supersede the live lines of other batches of w's format and backend
 * inside [from_ms, to_ms). */
static int supersede_period(sb_line_writer *w, const char *backend, int64_t from_ms,
                            int64_t to_ms, int64_t *count, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(w->db, "billing_line_supersede", e);

	if (st == NULL)
		return e->code;
	sb_bind_i64(w->db, st, ":batch_id", w->batch_id);
	sb_bind_text(w->db, st, ":format", w->format);
	sb_bind_text(w->db, st, ":backend", backend);
	sb_bind_i64(w->db, st, ":from_ms", from_ms);
	sb_bind_i64(w->db, st, ":to_ms", to_ms);
	return supersede_run(w, st, count, e);
}

int sb_line_writer_finish(sb_line_writer *w, bool has_period, int64_t from_ms, int64_t to_ms,
                          int64_t *count, sb_err *refused, sb_err *e)
{
	sb_db *db = w->db;
	sb_stmt *st;
	int rc;

	*count = 0;
	if (!has_period) {
		/* a span is the period covered only when every line has one length */
		if ((st = sb_db_stmt(db, "billing_pending_lengths", e)) == NULL)
			return e->code;
		sb_bind_i64(db, st, ":batch_id", w->batch_id);
		rc = sb_db_step(db, st, e);
		if (rc == SB_ROW) {
			char a[48], b[48], backend[72];
			sb_fail_hint(refused, SB_EUSAGE, SB_HINT_PERIOD_REISSUED,
			             "the lines of backend %s are of several lengths (%s and %s), so the period this file covers is not their span: " SB_WORDS_PERIOD_REISSUED,
			             sb_quote(sb_col_text(st, 0), SB_QUOTE_IF_NEEDED, backend, sizeof backend),
			             length_text(sb_col_i64(st, 1), a, sizeof a),
			             length_text(sb_col_i64(st, 2), b, sizeof b));
		}
		sb_stmt_reset(st);
		if (rc < 0)
			return e->code;
		if (refused->code != SB_OK)
			return SB_OK;
	}
	/* the same key, the same charge */
	if ((st = sb_db_stmt(db, "billing_line_supersede_keys", e)) == NULL)
		return e->code;
	sb_bind_i64(db, st, ":batch_id", w->batch_id);
	sb_bind_text(db, st, ":format", w->format);
	if (supersede_run(w, st, count, e) != SB_OK ||
	    (st = sb_db_stmt(db, "billing_line_supersede_charges", e)) == NULL)
		return e->code;
	sb_bind_i64(db, st, ":batch_id", w->batch_id);
	sb_bind_text(db, st, ":format", w->format);
	sb_bind_i64(db, st, ":loose", w->o.loose_identity ? 1 : 0);
	if (supersede_run(w, st, count, e) != SB_OK)
		return e->code;
	/* the period covered, backend by backend (spans read first: the
	 * statements below change billing_line, not the pending lines) */
	if ((st = sb_db_stmt(db, "billing_pending_spans", e)) == NULL)
		return e->code;
	sb_bind_i64(db, st, ":batch_id", w->batch_id);
	while ((rc = sb_db_step(db, st, e)) == SB_ROW) {
		int64_t lo = has_period ? from_ms : sb_col_i64(st, 1);
		int64_t hi = has_period ? to_ms : sb_col_i64(st, 2);
		if (supersede_period(w, sb_col_text(st, 0), lo, hi, count, e) != SB_OK)
			break;
	}
	sb_stmt_reset(st);
	if (e->code != SB_OK)
		return e->code;
	/* and the batch's lines become live */
	if ((st = sb_db_stmt(db, "billing_pending_move", e)) == NULL)
		return e->code;
	sb_bind_i64(db, st, ":batch_id", w->batch_id);
	if (sb_db_run(db, st, e) != SB_OK || (st = sb_db_stmt(db, "billing_pending_clear", e)) == NULL)
		return e->code;
	sb_bind_i64(db, st, ":batch_id", w->batch_id);
	return sb_db_run(db, st, e);
}

int sb_lines_batch_ended(sb_db *db, int64_t batch_id, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(db, "billing_row_seen_clear", e);

	if (st == NULL)
		return e->code;
	sb_bind_i64(db, st, ":batch_id", batch_id);
	if (sb_db_run(db, st, e) != SB_OK || (st = sb_db_stmt(db, "billing_pending_clear", e)) == NULL)
		return e->code;
	sb_bind_i64(db, st, ":batch_id", batch_id);
	return sb_db_run(db, st, e);
}
