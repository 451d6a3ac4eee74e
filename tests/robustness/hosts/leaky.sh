#!/bin/sh
# A host that leaks: for tests/robustness/secrets_test.ts. Dumps the environment it was given to
# $LEAK_ENV_FILE, then prints credentials on every channel a report could carry: assistant text, a tool call,
# an unparsed line, the error result (which the executor copies to stderr), and stderr itself. The planted
# values come as arguments: leaky.sh PROMPT ANTHROPIC_KEY OPENAI_KEY GOOGLE_KEY GITHUB_TOKEN BEARER COOKIE.
[ -n "$LEAK_ENV_FILE" ] && env > "$LEAK_ENV_FILE"
anthropic="$2"; openai="$3"; google="$4"; github="$5"; bearer="$6"; cookie="$7"
echo '{"type":"system","subtype":"init","session_id":"leaky","model":"leaky-model"}'
echo '{"type":"assistant","message":{"content":[{"type":"text","text":"my key is '"$anthropic"' and '"$openai"'"}]}}'
echo '{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"curl -H \"Authorization: Bearer '"$bearer"'\" -H \"x-api-key: '"$google"'\""}}]}}'
echo "Cookie: session=$cookie; theme=dark"
echo "token $github in an unparsed line"
echo "env says ANTHROPIC_API_KEY=${ANTHROPIC_API_KEY:-unset} AWS_SECRET_ACCESS_KEY=${AWS_SECRET_ACCESS_KEY:-unset}"
echo "Authorization: Bearer $bearer" >&2
echo "export OPENAI_API_KEY=$openai" >&2
echo "aws secret ${AWS_SECRET_ACCESS_KEY:-unset}" >&2
echo '{"type":"result","subtype":"error_during_execution","is_error":true,"result":"failed: api_key='"$google"' Set-Cookie: sid='"$cookie"'; env '"${ANTHROPIC_API_KEY:-unset}"'"}'
exit 1
