#!/bin/sh
# A deliberately hostile agent-CLI host for tests/robustness/hostile_output_test.ts. Usage: hostile.sh SHAPE
# (the shape may come anywhere in argv; the rest, such as the prompt, is ignored). Each shape is one way a real
# host can misbehave; none of them ever ends its stream properly.
shape=""
for arg in "$@"; do
  case "$arg" in
    flood-no-newline|million-lines|stderr-only|closes-stdout|grandchild-ignores-term|grandchild-holds-pipe)
      shape="$arg" ;;
  esac
done

case "$shape" in
  flood-no-newline)
    # 1 GiB on stdout and not one newline byte in it.
    head -c 1073741824 /dev/zero
    ;;
  million-lines)
    # 10^6 tiny lines, none of them JSON.
    yes x | head -n 1000000
    ;;
  stderr-only)
    # Nothing on stdout; 10^6 lines on stderr, then a failure exit.
    yes "hostile: stderr only" | head -n 1000000 >&2
    exit 1
    ;;
  closes-stdout)
    # Closes stdout (EOF for the reader) and keeps running.
    exec 1>&-
    exec sleep 3600
    ;;
  grandchild-ignores-term)
    # A grandchild that ignores SIGTERM, detached from the pipes, outlives the host, which exits at once.
    (trap '' TERM; exec sleep 3600) </dev/null >/dev/null 2>&1 &
    echo '{"type":"system","subtype":"init","session_id":"hostile","model":"hostile"}'
    exit 0
    ;;
  grandchild-holds-pipe)
    # The host exits, but its grandchild (ignoring SIGTERM too) keeps stdout and stderr open.
    (trap '' TERM; exec sleep 3600) &
    exit 0
    ;;
  *)
    echo "hostile.sh: unknown shape in: $*" >&2
    exit 2
    ;;
esac
