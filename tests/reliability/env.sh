# shellcheck shell=sh disable=SC2034,SC2154
# env.sh: the set-up kill.sh, failmalloc.sh and concurrency.sh share,
# sourced by each after it sets `here` (its own folder): a fixed locale,
# time zone and clock (SBLEDGER_NOW), no ledger taken from the caller's
# environment, and `repo`, the checkout's root.
LC_ALL=C
TZ=UTC
SBLEDGER_NOW=2026-11-30T12:00:00Z
export LC_ALL TZ SBLEDGER_NOW
unset SBLEDGER_DB
repo=$(cd "$here/../.." && pwd)
