#!/bin/sh
# A host for tests/robustness/interrupt_grace_test.ts that ends its stream properly and then does not exit:
# it prints a claude init and a success result, writes its pid (its process group id) to the file named by
# its last argument, and sleeps ignoring SIGTERM, so only SIGKILL ends it. Usage: lingers.sh PROMPT MARKER
for arg in "$@"; do marker="$arg"; done
echo '{"type":"system","subtype":"init","session_id":"lingers","model":"lingers"}'
echo '{"type":"assistant","message":{"content":[{"type":"text","text":"OK"}]}}'
echo '{"type":"result","subtype":"success","is_error":false,"result":"OK","usage":{"input_tokens":1,"output_tokens":1}}'
trap '' TERM
echo "$$" >"$marker.tmp" && mv "$marker.tmp" "$marker"
exec sleep 3600
