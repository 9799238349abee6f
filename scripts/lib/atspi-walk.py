"""Walks the AT-SPI tree of one running application and lists every focusable widget on screen
that has no accessible name (what a screen reader would announce as just its role).

Usage: /usr/bin/python3 scripts/lib/atspi-walk.py PID [LABEL [KNOWN]]
  PID: the application's process. LABEL names the view in the output. KNOWN: a file of lines
  "REGEX<TAB>REASON": a widget whose "ROLE at PATH" matches REGEX is listed as known, with the
  reason, and does not fail the walk (widgets a library builds that the app cannot name).
Prints one line per widget without a name: "LABEL: ROLE without a name at PATH", then a summary
line "LABEL: N focusable, M without a name". Exit status 0 when every one has a name, 1 when one
has none, 2 when the application is not on the accessibility bus or shows nothing focusable.

Runs under /usr/bin/python3: the Atspi bindings are Debian's (gir1.2-atspi-2.0), which another
python3 on PATH (pyenv) does not see.
"""
import re
import sys
import time

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # noqa: E402

MAX_DEPTH = 80
# GTK 4.8 sets SHOWING on windows only; a hidden widget (and all below it) lacks VISIBLE. Pages of a
# stack that are not in front stay VISIBLE, but what they hold has no size (no allocation): a
# focusable widget counts when it is VISIBLE and has a size, i.e. it is on the page shown.
SHOWN = (Atspi.StateType.VISIBLE,)


def has_size(node):
    try:
        extents = node.get_extents(Atspi.CoordType.WINDOW)
    except Exception:  # no Component interface: take it as shown
        return True
    return extents.width > 0 and extents.height > 0
# Without a name GTK 4.8 answers with the widget's type ("GtkImage", "AdwGizmo"): what a screen
# reader would read out. That counts as no name.
TYPE_NAME = re.compile(r"^(Gtk|Adw)[A-Z][A-Za-z]*$")


CONTAINERS = {"scroll pane", "list", "list box", "table", "tree", "tree table", "panel", "filler",
              "viewport", "page tab list", "layered pane"}


def accessible_name(node):
    name = (node.get_name() or "").strip()
    return "" if TYPE_NAME.match(name) else name


def find_app(pid, seconds=20):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        desktop = Atspi.get_desktop(0)
        for i in range(desktop.get_child_count()):
            app = desktop.get_child_at_index(i)
            try:
                if app is not None and app.get_process_id() == pid:
                    return app
            except Exception:  # an application that left the bus meanwhile
                continue
        time.sleep(0.25)
    return None


def step(node, index):
    role = node.get_role_name() or "?"
    name = (node.get_name() or "").strip()
    return f"{role}[{index}]" + (f"“{name[:40]}”" if name else "")


def walk(node, path, depth, found, counts):
    """Walks below node; returns whether anything in its subtree (itself too) is focusable."""
    if depth > MAX_DEPTH:
        return False
    try:
        states = node.get_state_set()
    except Exception:
        return False
    if not all(states.contains(s) for s in SHOWN):
        return False
    below = False
    try:
        n = node.get_child_count()
    except Exception:
        n = 0
    for i in range(n):
        child = node.get_child_at_index(i)
        if child is not None and walk(child, path + [step(child, i)], depth + 1, found, counts):
            below = True
    focusable = states.contains(Atspi.StateType.FOCUSABLE)
    role = node.get_role_name() or "?"
    if focusable and not has_size(node):
        return below
    # A container that hands the focus on to focusable widgets inside it (a scrolled window, a list
    # box) is not a stop of its own; one with nothing focusable inside takes the focus: it needs a name.
    if focusable and not (below and role in CONTAINERS):
        counts[0] += 1
        if not accessible_name(node):
            found.append((role, "/".join(path)))
    return focusable or below


def main():
    pid = int(sys.argv[1])
    label = sys.argv[2] if len(sys.argv) > 2 else str(pid)
    known = []
    if len(sys.argv) > 3:
        for line in open(sys.argv[3], encoding="utf-8"):
            if line.strip() and not line.startswith("#"):
                pattern, _, reason = line.rstrip("\n").partition("\t")
                known.append((re.compile(pattern), reason))
    app = find_app(pid)
    if app is None:
        print(f"{label}: the application (pid {pid}) is not on the accessibility bus", file=sys.stderr)
        return 2
    found, counts = [], [0]
    for i in range(app.get_child_count()):
        window = app.get_child_at_index(i)
        if window is not None:
            walk(window, [step(window, i)], 0, found, counts)
    excused = []
    for role, path in list(found):
        reason = next((r for p, r in known if p.search(f"{role} at {path}")), None)
        if reason is not None:
            found.remove((role, path))
            excused.append((role, path, reason))
    for role, path, reason in excused:
        print(f"{label}: known: {role} without a name at {path} ({reason})")
    # Rows and cells of one list differ only in their last index: one line for them all.
    groups = {}
    for role, path in found:
        key = (role, re.sub(r"\[\d+\]([^/]*)$", r"[*]", path))
        groups[key] = groups.get(key, 0) + 1
    for (role, path), n in groups.items():
        print(f"{label}: {role} without a name at {path}" + (f" (×{n})" if n > 1 else ""))
    print(f"{label}: {counts[0]} focusable, {len(found)} without a name" + (f", {len(excused)} known" if excused else ""))
    if counts[0] == 0:
        print(f"{label}: no focusable widget at all: the tree was not read", file=sys.stderr)
        return 2
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
