# shellcheck shell=bash
# The shared parts of Crate's UI tests (scripts/ui-*-test, ui-tour, ui-pseudo-locale-shots):
# a private Xvfb (and, when asked, a private session bus around the whole script), a scratch
# library, the loopback fixture services, starting CrateDesktop, finding its window, waiting for
# the lines it prints under CRATE_TEST_EVENTS=1, screenshots, failing with the window's output,
# and cleaning up every process it started, by PID.
#
# Sourced, after `set -euo pipefail`:
#
#   source "$(dirname "$0")/lib/ui-harness.sh"
#   ui_init ui-example-test --xvfb 1440x900x24 -- "$@"
#   ui_scratch_library
#   ui_start_window --page crate
#   ui_wait_event '^grid-count 3$' 30 > /dev/null || ui_fail "the window never showed 3 albums"
#   ui_find_window --focus
#
# Variables it sets (the tests use them directly): root (the repository), bin (BIN_DIR, the first
# argument; SwiftPM's debug build by default), shots (SCREENSHOT_DIR, the second argument; empty:
# no screenshots), scratch (a fresh folder removed at exit; CRATE_KEEP_SCRATCH=1 keeps it), log
# (the window's stdout, its test events; "$scratch/desktop.log" unless the test sets another
# before ui_start_window), window (the X window id, after ui_find_window), app_pid, base (the
# fixture services' URL, after ui_start_services).

ui_name="" root="" bin="" shots="" scratch="" log="" window="" app_pid="" base=""
ui_app_group=""       # "1" when app_pid leads a process group of its own (setsid)
ui_server_pid=""
ui_extra_pids=()      # other background processes to end at exit (ui_track)

# ui_init NAME [--xvfb WxHxD] [--session-bus] [--] ARGS…
#   NAME names the test in messages. --xvfb runs the whole script again under `xvfb-run` with a
#   screen of that size (once: the inner run knows it by UI_HARNESS_INNER); --session-bus also
#   puts it inside `dbus-run-session`, for tests that talk to the window over the session bus
#   (MPRIS): the window then shares the script's bus. ARGS are the script's own arguments.
ui_init() {
  ui_name="$1"; shift
  local screen="" bus=""
  while [ $# -gt 0 ]; do
    case "$1" in
      --xvfb) screen="$2"; shift 2 ;;
      --session-bus) bus=1; shift ;;
      --) shift; break ;;
      *) break ;;
    esac
  done
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
  bin="${1:-$root/.build/debug}"
  shots="${2:-}"
  if [ -n "$screen" ] && [ "${UI_HARNESS_INNER:-}" != "$ui_name" ]; then
    if [ -n "$bus" ]; then
      exec xvfb-run -a -s "-screen 0 $screen" env UI_HARNESS_INNER="$ui_name" dbus-run-session -- "$0" "$@"
    fi
    exec xvfb-run -a -s "-screen 0 $screen" env UI_HARNESS_INNER="$ui_name" "$0" "$@"
  fi
  # The inner run's own children (a test started from a test) start afresh.
  unset UI_HARNESS_INNER
  scratch="$(mktemp -d)"
  log="$scratch/desktop.log"
  trap ui_cleanup EXIT
}

# ui_cleanup: ends the window (its process group when it has one: the private bus and what the
# bus started), the fixture services and tracked processes, then removes the scratch folder. Runs
# at exit; a test may define ui_before_cleanup (e.g. to release a held mouse button).
ui_cleanup() {
  if declare -F ui_before_cleanup > /dev/null; then ui_before_cleanup || true; fi
  ui_stop_window
  ui_stop_services
  local pid
  for pid in "${ui_extra_pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  if [ -n "${CRATE_KEEP_SCRATCH:-}" ]; then echo "$ui_name: kept $scratch" >&2; else rm -rf "$scratch"; fi
}

# ui_track PID: a background process started by the test, ended at exit.
ui_track() { ui_extra_pids+=("$1"); }

# ui_scratch_library [--first-run] [SUBDIR]: the CRATE_*_DIR folders (and HOME) in the scratch
# folder, SUBDIR of it if given (a second library in one test). Not a first run unless
# --first-run: an empty settings.json keeps the welcome page and Preferences away.
ui_scratch_library() {
  local first_run=""
  if [ "${1:-}" = --first-run ]; then first_run=1; shift; fi
  local dir="$scratch${1:+/$1}"
  export CRATE_DATA_DIR="$dir/data" CRATE_CACHE_DIR="$dir/cache"
  export CRATE_CONFIG_DIR="$dir/config" CRATE_STATE_DIR="$dir/state"
  export HOME="$scratch"
  if [ -z "$first_run" ]; then
    mkdir -p "$CRATE_CONFIG_DIR"
    : > "$CRATE_CONFIG_DIR/settings.json"
  fi
}

# ui_seed_library [--settled] N: a library at its current schema with N demo albums.
ui_seed_library() {
  local settled=()
  if [ "$1" = --settled ]; then settled=(--settled); shift; fi
  "$bin/crate" doctor > /dev/null 2>&1 || true
  "$root/scripts/seed-demo-library" "${settled[@]}" "$CRATE_DATA_DIR" "$CRATE_CACHE_DIR" "$1" > /dev/null
}

# ui_add_track_lists: every album gets a stored 3-track list (so it plays on the log player).
ui_add_track_lists() {
  python3 - "$CRATE_DATA_DIR/crate.sqlite" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for (album,) in db.execute("SELECT id FROM album").fetchall():
    for position in (1, 2, 3):
        db.execute("INSERT INTO track(albumId, disc, position, number, title, durationMs) VALUES (?,?,?,?,?,?)",
                   (album, 1, position, str(position), f"Track {position}", 240000))
db.commit()
PY
}

# ui_sql QUERY [ARGS…]: runs QUERY on the scratch library (committed); prints the rows, columns
# joined by "|".
ui_sql() {
  python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); r=c.execute(sys.argv[2], sys.argv[3:]).fetchall(); c.commit(); print('\n'.join('|'.join(map(str, x)) for x in r))" "$CRATE_DATA_DIR/crate.sqlite" "$@"
}

# ui_make_flac PATH BUFFERS FREQUENCY: a FLAC file of BUFFERS × 1024 samples (44.1 kHz) of a tone.
ui_make_flac() {
  mkdir -p "$(dirname "$1")"
  gst-launch-1.0 -q audiotestsrc num-buffers="$2" samplesperbuffer=1024 freq="$3" ! audioconvert ! flacenc ! filesink location="$1"
}

# ui_start_services [COVER]: the loopback stand-ins for MusicBrainz, the Cover Art Archive,
# ListenBrainz and the provider (scripts/ui-fixture-services); sets base. Their stderr (requests,
# with CRATE_UI_FIXTURE_LOG=1) goes to "$scratch/server.err". Settings such as
# CRATE_UI_WALL_ART and CRATE_UI_FIXTURE_HOLD come from the caller's environment.
ui_start_services() {
  rm -f "$scratch/port"
  "$root/scripts/ui-fixture-services" "$scratch/port" "${1:-$root/Tests/Fixtures/images/covers/cover-00.jpg}" 2>> "$scratch/server.err" &
  ui_server_pid=$!
  local _
  for _ in $(seq 100); do [ -s "$scratch/port" ] && break; sleep 0.05; done
  [ -s "$scratch/port" ] || ui_fail "the fixture services did not start"
  base="http://127.0.0.1:$(cat "$scratch/port")"
}

ui_stop_services() {
  if [ -n "$ui_server_pid" ]; then kill "$ui_server_pid" 2>/dev/null || true; wait "$ui_server_pid" 2>/dev/null || true; fi
  ui_server_pid=""
}

# ui_start_window [--shared-bus] [--no-events] [--] ARGS…: CrateDesktop ARGS in the background,
# stdout to $log, stderr to "$scratch/desktop.err". By default on a private session bus of its
# own (it cannot hand itself to a Crate already running) in its own process group, and with
# CRATE_TEST_EVENTS=1. --shared-bus: on the script's bus (ui_init --session-bus), a plain child
# (app_pid is CrateDesktop itself). --no-bus: its own process group on the bus the script has
# (app_pid is CrateDesktop itself: `xdotool search --pid` finds its windows). Other settings (CRATE_PLAYER=log …) come from the caller's
# environment: `CRATE_PLAYER=log ui_start_window --page wall`.
ui_start_window() {
  local shared="" events=1 bus=(dbus-run-session --)
  while [ $# -gt 0 ]; do
    case "$1" in
      --shared-bus) shared=1; shift ;;
      --no-bus) bus=(); shift ;;
      --no-events) events=""; shift ;;
      --) shift; break ;;
      *) break ;;
    esac
  done
  window=""
  if [ -n "$shared" ]; then
    if [ -n "$events" ]; then
      CRATE_TEST_EVENTS=1 "$bin/CrateDesktop" "$@" > "$log" 2> "$scratch/desktop.err" &
    else
      "$bin/CrateDesktop" "$@" > "$log" 2> "$scratch/desktop.err" &
    fi
    app_pid=$!; ui_app_group=""
  else
    if [ -n "$events" ]; then
      CRATE_TEST_EVENTS=1 setsid "${bus[@]}" "$bin/CrateDesktop" "$@" > "$log" 2> "$scratch/desktop.err" &
    else
      setsid "${bus[@]}" "$bin/CrateDesktop" "$@" > "$log" 2> "$scratch/desktop.err" &
    fi
    app_pid=$!; ui_app_group=1
  fi
}

# ui_stop_window: ends the window started by ui_start_window (and waits for it).
ui_stop_window() {
  if [ -n "$app_pid" ]; then
    if [ -n "$ui_app_group" ]; then kill -TERM -- "-$app_pid" 2>/dev/null || true; else kill -TERM "$app_pid" 2>/dev/null || true; fi
    wait "$app_pid" 2>/dev/null || true
  fi
  app_pid=""
}

# ui_find_window [--focus] [NAME_REGEX]: waits (15 s) for a visible window named NAME_REGEX
# (default ^Crate$) and sets window; fails if there is none. --focus gives it the keyboard focus.
ui_find_window() {
  local focus=""
  if [ "${1:-}" = --focus ]; then focus=1; shift; fi
  local name="${1:-^Crate\$}" _
  window=""
  for _ in $(seq 150); do
    window=$(xdotool search --onlyvisible --name "$name" 2>/dev/null | head -1) && [ -n "$window" ] && break
    sleep 0.1
  done
  [ -n "$window" ] || ui_fail "no window named ${name//[\^\$]/} on the display"
  if [ -n "$focus" ]; then ui_focus; fi
}

# ui_focus [WINDOW]: keyboard focus to the window (without --sync where the server refuses it).
ui_focus() {
  local w="${1:-$window}"
  xdotool windowfocus --sync "$w" 2>/dev/null || xdotool windowfocus "$w"
}

# ui_wait_event REGEX SECONDS: waits for a line of $log matching the extended REGEX; prints the
# last one. Fails (returns 1) after SECONDS.
ui_wait_event() {
  local pattern="$1" tries=$(( $2 * 20 )) _
  for _ in $(seq "$tries"); do
    if grep -Eq "$pattern" "$log" 2>/dev/null; then grep -E "$pattern" "$log" | tail -1; return 0; fi
    sleep 0.05
  done
  return 1
}

# ui_wait_last PREFIX VALUE SECONDS: waits until the LAST line of $log starting with "PREFIX " is
# exactly "PREFIX VALUE" (a state that may change back and forth).
ui_wait_last() {
  local tries=$(( $3 * 20 )) _
  for _ in $(seq "$tries"); do
    [ "$(grep -E "^$1 " "$log" 2>/dev/null | tail -1)" = "$1 $2" ] && return 0
    sleep 0.05
  done
  return 1
}

# ui_wait_new REGEX SECONDS AFTER_LINE: waits for a line matching REGEX after line AFTER_LINE of
# $log (a line count taken before the action: `lines=$(ui_lines)`).
ui_wait_new() {
  local _
  for _ in $(seq $(( $2 * 20 ))); do
    tail -n +"$(( $3 + 1 ))" "$log" 2>/dev/null | grep -Eq "$1" && return 0
    sleep 0.05
  done
  return 1
}

# ui_lines: how many lines $log has now.
ui_lines() { wc -l < "$log"; }

# ui_point NAME: "X Y" of the last point the window reported as "NAME X Y".
ui_point() { grep -E "^$1 [0-9]" "$log" | tail -1 | awk '{print $2, $3}'; }

# ui_click X Y [BUTTON]: a click at window coordinates.
ui_click() { xdotool mousemove --window "$window" "$1" "$2" click "${3:-1}"; }

# ui_click_point NAME [AFTER_LINE]: waits (10 s) for the point NAME to be reported (after line
# AFTER_LINE, default any), then clicks it.
ui_click_point() {
  ui_wait_new "^$1 [0-9]" 10 "${2:-0}" || ui_fail "no position reported for $1"
  local x y
  read -r x y <<< "$(ui_point "$1")"
  ui_click "$x" "$y"
}

# ui_key KEY…: keys to the window (modifiers held by xdotool released first), each followed by a
# pause of UI_KEY_PAUSE seconds (0.4 by default) for GTK to act on it.
ui_key() {
  local k
  for k in "$@"; do
    xdotool key --window "$window" --clearmodifiers "$k"
    sleep "${UI_KEY_PAUSE:-0.4}"
  done
}

# ui_shot NAME [SETTLE]: with a SCREENSHOT_DIR, the whole screen as NAME.png, after SETTLE
# seconds (art and animations). Nothing without one.
ui_shot() {
  [ -n "$shots" ] || return 0
  if [ -n "${2:-}" ]; then sleep "$2"; fi
  import -window root "$shots/$1.png"
}

# ui_until SECONDS COMMAND…: runs COMMAND every 0.1 s until it succeeds; 1 after SECONDS.
ui_until() {
  local tries=$(( $1 * 10 )) _; shift
  for _ in $(seq "$tries"); do "$@" && return 0; sleep 0.1; done
  return 1
}

# MPRIS on the session bus: ui_mpris_get PROPERTY, ui_mpris_call METHOD, ui_mpris_status_is STATUS.
ui_mpris=(--session --print-reply --dest=org.mpris.MediaPlayer2.crate /org/mpris/MediaPlayer2)
ui_mpris_get() { dbus-send "${ui_mpris[@]}" org.freedesktop.DBus.Properties.Get string:org.mpris.MediaPlayer2.Player "string:$1" 2>/dev/null; }
ui_mpris_call() { dbus-send "${ui_mpris[@]}" "org.mpris.MediaPlayer2.Player.$1" > /dev/null; }
ui_mpris_status_is() { ui_mpris_get PlaybackStatus | grep -q "\"$1\""; }
ui_mpris_title_is() { ui_mpris_get Metadata | grep -q "\"$1\""; }

# ui_fail MESSAGE: "NAME: FAILED — MESSAGE", then what the window said (the test's own
# ui_fail_details if it defines one; else the last 40 events and 20 lines of stderr), exit 1.
ui_fail() {
  echo "$ui_name: FAILED — $*" >&2
  if declare -F ui_fail_details > /dev/null; then
    ui_fail_details || true
  else
    echo "--- window events" >&2; tail -40 "$log" >&2 2>/dev/null || true
    echo "--- stderr" >&2; tail -20 "$scratch/desktop.err" >&2 2>/dev/null || true
  fi
  exit 1
}
