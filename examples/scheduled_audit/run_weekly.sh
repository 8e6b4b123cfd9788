#!/bin/sh
# Three weekly audits, one week apart, as cron would run them (each Monday at
# 06:00): the week's predictions are put where the spec reads them, the run is
# dated by SOURCE_DATE_EPOCH, the report goes to reports/<date>/ and the run into
# the archive history/<date>/. A failed gate (exit status 3) does not stop the
# next week; a rerun for the same date replaces its archive entry. Run from
# anywhere: paths are the script's folder's.
set -u
cd "$(dirname "$0")"
PYTHON=${PYTHON:-python3}
for week in 1 2 3; do
    day=$((2 + 7 * (week - 1)))                 # Mondays: 2, 9 and 16 November 2026
    date=$(printf '2026-11-%02d' "$day")
    epoch=$("$PYTHON" -c "import datetime as d; print(int(d.datetime(2026, 11, $day, 6, tzinfo=d.timezone.utc).timestamp()))")
    cp "data/week-$week.csv" data/week.csv      # what the scoring job writes
    SOURCE_DATE_EPOCH=$epoch \
        "$PYTHON" -m evalreport run weekly.yaml --quiet --out "reports/$date"
    echo "week $week ($date): exit status $?"
done
