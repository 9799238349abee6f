// Replays the checks `CRATE_VERIFY_DUMP=DIR crate-bench tier0-classes|calibrate` wrote through the
// cover check's `run`, linked from Sources/CCoverCheck, with TierZeroRule's order, and prints found
// and false accepts per class: the verification can be tuned in seconds on tier 0's exact inputs
// (docs/decisions/0039-verification-that-tells-light-from-content.md). Built and run by
// scripts/replay-cover-checks. Environment: STD=1 method 0 (0015) instead of lightAware, V=1 every
// photo, ONLY=substring of the photo's file, MINVIS / MAXCONTENT / MINAGR to try other limits,
// CRATE_COVER_CHECK_MAP=1 the cell map of each check and each alignment's verdict.
#include "crate_plugins.h"
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>
#include <chrono>

struct Img { int w = 0, h = 0; std::vector<uint8_t> px; };
static std::map<std::string, Img> cache;
static const Img &load(const std::string &path) {
    auto it = cache.find(path);
    if (it != cache.end()) return it->second;
    Img im;
    FILE *f = fopen(path.c_str(), "rb");
    if (!f) { fprintf(stderr, "no %s\n", path.c_str()); exit(1); }
    int maxv;
    if (fscanf(f, "P6 %d %d %d", &im.w, &im.h, &maxv) != 3) exit(2);
    fgetc(f);
    im.px.resize(size_t(im.w) * im.h * 3);
    if (fread(im.px.data(), 1, im.px.size(), f) != im.px.size()) exit(3);
    fclose(f);
    return cache[path] = im;
}
static std::vector<std::string> split(const std::string &s, char d) {
    std::vector<std::string> out; std::string cur; std::stringstream ss(s);
    while (std::getline(ss, cur, d)) out.push_back(cur);
    return out;
}
static bool corners(const std::string &s, double *c) {
    if (s == "-") return false;
    auto v = split(s, ',');
    for (int i = 0; i < 8; i++) c[i] = atof(v[i].c_str());
    return true;
}
struct Row {
    std::string set, file, group, expected, photo, cand, rank;
    int dist = 0;
    bool strict = false;
    std::string sq, ol, surround = "-", surroundSq = "-", surroundOl = "-";
};

int main(int argc, char **argv) {
    std::string dir = argv[1];
    bool standard = getenv("STD") != nullptr;
    bool verbose = getenv("V") != nullptr;
    const char *only = getenv("ONLY");
    const crate_cover_check_table *t = crate_cover_check_plugin();
    crate_cover_check_limits lim = t->defaults();
    if (!standard) {
        lim.method = 1; lim.min_correlation = 0.1f; lim.min_agreement = 0.75f; lim.close_correlation = 1;
        lim.min_agreement_when_close = 1; lim.min_visible = 0.6f; lim.max_occluded = 0.2f; lim.max_content = 4;
    }
    if (getenv("MINVIS")) lim.min_visible = atof(getenv("MINVIS"));
    if (getenv("MAXCONTENT")) lim.max_content = atoi(getenv("MAXCONTENT"));
    if (getenv("MINAGR")) lim.min_agreement = atof(getenv("MINAGR"));
    std::ifstream in(dir + "/checks.tsv");
    std::string line;
    std::vector<std::vector<Row>> photos;
    while (std::getline(in, line)) {
        auto f = split(line, '\t');
        if (f.size() < 11) continue;
        Row r{f[0], f[1], f[2], f[3], f[4], f[6], f[5], atoi(f[7].c_str()), f[8] == "1", f[9], f[10]};
        if (f.size() >= 14) r.surround = f[11], r.surroundSq = f[12], r.surroundOl = f[13];
        if (only && r.file.find(only) == std::string::npos) continue;
        if (photos.empty() || photos.back()[0].photo != r.photo) photos.push_back({});
        photos.back().push_back(r);
    }
    struct Tally { int known = 0, found = 0, wrong = 0, neg = 0, fa = 0, sl = 0; };
    std::vector<std::pair<std::string, Tally>> groups;
    double ms = 0; int checks = 0;
    for (auto &rows : photos) {
        const Row &r0 = rows[0];
        std::string decision = "nil";
        std::string notes;
        bool shortlisted = false;
        for (auto &r : rows) {
            if (r.cand == "-") break;
            if (r.cand == r.expected) shortlisted = true;
            const Img &photo = load(dir + "/photos/" + r.photo);
            const Img &cover = load(dir + "/covers/" + r.cand + ".ppm");
            crate_cover_check out{};
            bool accepted = false;
            char buf[300];
            auto t0 = std::chrono::steady_clock::now();
            // CoverVerifier.check: the outline, then the square, each in the vision square and, when
            // it runs out of that square, again in the surround.
            auto attempt = [&](const Img &img, const std::string &cs, const char *tag) {
                double c[8];
                if (!corners(cs, c)) return false;
                crate_cover_check o{};
                t->run(img.px.data(), img.w, img.h, cover.px.data(), cover.w, cover.h, c, lim, &o);
                checks++;
                snprintf(buf, sizeof buf, " %s@%d/%s:%s ecc=%.2f vis=%.2f agr=%.2f occ=%.2f content=%d st=%d", r.cand.c_str(), r.dist,
                         tag, o.accepted ? "ACC" : "no", o.correlation, o.visible, o.agreement, o.occluded, o.content, o.status);
                notes += buf;
                if (tag[0] != 'S') out = o;
                return o.accepted && o.status == 0;
            };
            bool haveSquare = r.sq != "-";
            for (int k = 0; k < 2 && !accepted; k++) {
                const std::string &cs = k == 0 ? r.ol : r.sq;
                if (!attempt(photo, cs, k == 0 ? "ol" : "sq")) {
                    double c[8];
                    bool runsOut = false;
                    if (corners(cs, c))
                        for (int i = 0; i < 8; i++) runsOut |= c[i] < 0 || c[i] > (i % 2 ? photo.h : photo.w);
                    if (cs != "-" && r.surround != "-" && runsOut)
                        accepted = attempt(load(dir + "/photos/" + r.surround), k == 0 ? r.surroundOl : r.surroundSq, k == 0 ? "Sol" : "Ssq");
                } else accepted = true;
            }
            if (!accepted && !haveSquare) out.status = 2;
            ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
            if (accepted) { decision = r.cand; break; }
            bool misfit = !standard && out.status == 4 && out.correlation < 0.5f;  // CoverVerifier's `differs`
            if (r.rank == "0" && out.status != 0 && !misfit && r.strict) { decision = r.cand; notes += " (strict)"; break; }
        }
        if (groups.empty() || groups.back().first != r0.group) groups.push_back({r0.group, {}});
        Tally &g = groups.back().second;
        bool known = r0.expected != "-";
        bool ok = known ? decision == r0.expected : decision == "nil";
        if (known) { g.known++; g.sl += shortlisted; if (decision == r0.expected) g.found++; else if (decision != "nil") g.wrong++; }
        else { g.neg++; if (decision != "nil") g.fa++; }
        if (verbose || !ok) printf("%s\t%s%s\t%s\n", r0.file.c_str(), decision.c_str(), ok ? "" : "  <--", notes.c_str());
    }
    Tally all;
    printf("\n| class | photos | shortlisted | found | wrong | negatives | FA |\n");
    for (auto &[n, g] : groups) {
        printf("| %s | %d | %d | %d | %d | %d | %d |\n", n.c_str(), g.known, g.sl, g.found, g.wrong, g.neg, g.fa);
        all.known += g.known; all.found += g.found; all.wrong += g.wrong; all.neg += g.neg; all.fa += g.fa; all.sl += g.sl;
    }
    printf("| all | %d | %d | %d (%.0f%%) | %d | %d | %d |\n", all.known, all.sl, all.found, 100.0 * all.found / std::max(1, all.known), all.wrong, all.neg, all.fa);
    printf("checks %d, %.1f ms per check\n", checks, ms / std::max(1, checks));
}
