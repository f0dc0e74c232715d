# Sched Policy container client wrapper, first on the PATH of a policed command as docker and podman. It asks
# the engine that installed it (its desk) how to run this line, which places a container the line starts under
# the command's policy, then execs the real client found further on PATH. It never runs the line unplaced: without
# an answer within 30 s (the engine is gone) it exits 125. Output, exit status and signals are the client's (exec),
# but for a detached run ("after", below), whose client it runs as a child so as to say the verdict before it ends.
desk=@DESK@
name=${0##*/}
here=${0%/*}
real=
IFS=:
for d in $PATH; do
  [ -n "$d" ] || d=.
  [ "$d" = "$here" ] && continue
  if [ -f "$d/$name" ] && [ -x "$d/$name" ]; then real=$d/$name; break; fi
done
unset IFS
if [ -z "$real" ]; then
  echo "schedpolicy: no '$name' on PATH besides the policy's wrapper in $here" >&2
  exit 127
fi
answer=$desk/answers/$$
# printf, not ":": a failed redirection of a special built-in would end the shell with status 2
if ! printf "" >"$desk/requests/$$" 2>/dev/null; then
  echo "schedpolicy: the policy's engine for this command is gone ($desk); not running '$name'" >&2
  exit 125
fi
n=0
while [ ! -f "$answer" ]; do
  n=$((n + 1))
  if [ "$n" -gt 600 ]; then
    rm -f "$desk/requests/$$"
    echo "schedpolicy: the policy's engine did not answer within 30 s; not running '$name'" >&2
    exit 125
  fi
  sleep 0.05
done
# "go", "watch", "after" or nothing, a line to say (or an empty one), and the arguments, each quoted for the shell; or
# "no", an empty line and why
{ IFS= read -r verdict; IFS= read -r watch; IFS= read -r note; rest=$(cat); } <"$answer"
rm -f "$answer"
if [ "$verdict" != go ]; then
  printf 'schedpolicy: %s\n' "$note" >&2
  exit 125
fi
[ -z "$note" ] || printf '%s\n' "$note" >&2
if [ "$watch" = watch ]; then
  # what the kernel holds for the container, said once the engine knows it (at most 15 s); the client never waits
  (
    v=$desk/answers/v$$ n=0
    while [ ! -f "$v" ] && [ "$n" -lt 300 ]; do n=$((n + 1)); sleep 0.05; done
    [ -f "$v" ] && cat "$v" >&2
    rm -f "$v"
  ) &
fi
eval "set -- $rest"
if [ "$watch" = after ]; then
  # a detached run: its client returns once the container runs, and the step may end right then, after which Jenkins
  # reads none of its output; so the verdict is said after the client, before this ends (at most 15 s, only when the
  # client succeeded: a failed one started nothing to read back). A signal to this shell while the client runs is
  # taken once the client returns (a detached run's client is brief), then this ends by that signal; the client's own
  # status is this one's otherwise
  got=
  for s in HUP INT QUIT TERM; do trap "got=$s" "$s"; done
  "$real" "$@"
  rc=$?
  if [ -n "$got" ]; then
    trap - HUP INT QUIT TERM
    kill -s "$got" $$
  fi
  for s in HUP INT QUIT TERM; do trap 'exit $rc' "$s"; done
  v=$desk/answers/v$$ n=0
  if [ "$rc" -eq 0 ]; then
    while [ ! -f "$v" ] && [ "$n" -lt 300 ]; do n=$((n + 1)); sleep 0.05; done
    [ -f "$v" ] && cat "$v" >&2
  fi
  rm -f "$v"
  exit "$rc"
fi
exec "$real" "$@"
