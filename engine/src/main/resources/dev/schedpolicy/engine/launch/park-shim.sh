# Sched Policy park-and-release shim. Usage: sh park-shim.sh HANDSHAKE_DIR COMMAND [ARGS...]
# Parks until the engine that prepared HANDSHAKE_DIR has applied the policy to this PID, then execs
# COMMAND, so COMMAND's first instruction already runs under the policy. The wait is bounded by that
# engine: it holds the FIFOs open, so when it answers, gives up or dies, the read returns. Without
# "go" the command is never run unpoliced: exit 125.
d=$1
shift
answer=
# A brace group, not exec: a failed redirection on exec would end the shell with status 2. An engine that
# gives up while we write closes the FIFO's last reader: SIGPIPE would end us with 141, so it is ignored
# here (the write then fails and we exit 125) and reset before the exec, which must not inherit it.
trap '' PIPE
{ echo $$ >"$d/pid" && IFS= read -r answer; } <"$d/go" 2>/dev/null
trap - PIPE
if [ "$answer" != go ]; then
  echo "schedpolicy: the policy was not applied (${answer:-the launch handshake is gone}); not running the command" >&2
  exit 125
fi
exec "$@"
