#!/usr/bin/python3
"""Writes expected-facts.json: what Crate must store for each release lookup in this folder.

Written from MusicBrainz's documented rules, not from Crate's code: the barcode as sent (""
is none); catalogue numbers and labels distinct, in order, empty ones and the "[no label]"
label (157afde4-…) left out; empty country/date/packaging/status are none; per medium its
position, format, title ("" is none) and audio track count (the tracks listed, else
`track-count`, plus one for a pregap; data tracks never count); the playable tracks: every
non-video medium's tracks, a pregap at position 0.
"""
import json, os, sys

NO_LABEL = "157afde4-4bf5-4039-8ad2-5a15acc85176"
VIDEO = {"dvd", "dvd-video", "dvd-r video", "blu-ray", "blu-ray-r", "hd-dvd", "vhs", "vcd", "svcd",
         "betamax", "laserdisc", "ced", "umd"}

def none_if_empty(v):
    return v if v not in ("", None) else None

def distinct(values):
    out = []
    for v in values:
        v = (v or "").strip()
        if v and v.lower() != "[none]" and v not in out:
            out.append(v)
    return out

def expect(release):
    infos = release.get("label-info") or []
    labels = [i["label"]["name"] for i in infos
              if i.get("label") and i["label"].get("id") != NO_LABEL and i["label"].get("name") not in (None, "", "[no label]")]
    media, playable = [], []
    for index, m in enumerate(release.get("media") or []):
        tracks = m.get("tracks") or []
        pregap = m.get("pregap")
        count = (len(tracks) if tracks else (m.get("track-count") or 0)) + (1 if pregap else 0)
        position = m.get("position") or index + 1
        media.append({"position": position, "format": m.get("format"), "title": none_if_empty(m.get("title")), "track_count": count})
        if (m.get("format") or "").lower() in VIDEO:
            continue
        if pregap:
            playable.append([position, 0, pregap.get("title") or pregap.get("recording", {}).get("title")])
        for t_index, t in enumerate(tracks):
            playable.append([position, t.get("position") or t_index + 1, t.get("title") or t.get("recording", {}).get("title")])
    return {
        "barcode": none_if_empty(release.get("barcode")),
        "catalog_numbers": distinct([i.get("catalog-number") for i in infos]),
        "labels": distinct(labels),
        "country": none_if_empty(release.get("country")),
        "date": none_if_empty(release.get("date")),
        "packaging": none_if_empty(release.get("packaging")),
        "status": none_if_empty(release.get("status")),
        "media": media,
        "tracks": sorted(playable),
    }

here = os.path.dirname(os.path.abspath(__file__))
out = {}
for name in sorted(os.listdir(here)):
    if not name.endswith(".json") or name == "expected-facts.json":
        continue
    data = json.load(open(os.path.join(here, name)))
    if "id" not in data:  # a medium on its own: Crate's test wraps it in a release
        data = {"id": "00000000-0000-4000-8000-000000000000", "media": [data]}
    out[name] = expect(data)
json.dump(out, open(os.path.join(here, "expected-facts.json"), "w"), indent=1, ensure_ascii=False, sort_keys=True)
print("wrote", len(out), "releases")
