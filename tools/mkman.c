/* mkman.c: write the man page sbledger.1 on standard output, made from
 * the command table by cli/help.c, the very text of 'sbledger --help' and
 * 'sbledger COMMAND --help'.  Run by the Makefile. */
#include <stdio.h>

#include "cli/help.h"

int main(void)
{
	cli_help_man(stdout);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		perror("mkman: cannot write the man page");
		return 74;
	}
	return 0;
}
