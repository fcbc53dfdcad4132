/* sqlfiles.h: the files under sql/, compiled into the binary as text by
 * tools/embed_sql.sh (build/sql_embed.c). */
#ifndef SB_SQLFILES_H
#define SB_SQLFILES_H

struct sb_sqlfile {
	const char *name;  /* path under sql/ without ".sql": "queries/run_insert" */
	const char *text;  /* the file's text, NUL-terminated */
};

/* Every SQL file, sorted by name, ended by {NULL, NULL}. */
extern const struct sb_sqlfile sb_sqlfiles[];

/* The text of sql/NAME.sql, or NULL when there is no such file.
 * Borrowed: static storage, never freed. */
const char *sb_sql(const char *name);

#endif
