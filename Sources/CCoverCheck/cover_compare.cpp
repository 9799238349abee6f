// Tier-0 verification: is what differs between the rectified photo and the cover light, or content?
// (docs/decisions/0039-verification-that-tells-light-from-content.md)
//
// Light is modelled, then forgiven: a smooth brightness field (gradient, vignette, the soft edge of
// a shadow), one colour transform for the whole cover (a lamp's cast, the camera's rendering) and
// a bounded white balance per region (light that changes across the cover). Texture is compared
// band-passed, by zero-mean correlation, which no gain, offset or smooth ramp changes; colour by
// chromaticity, which no brightness changes. What still disagrees is then judged by where it lies:
// a compact patch over the cover's edge is something lying on the sleeve (a sticker, a thumb); a
// patch inside the artwork, or one that crosses it, is another print.
#include "cover_compare.hpp"
#include "light_model.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace cratecheck {
namespace {

// Chromaticity distance (r, g) within which two cell means are the same ink: cells of the same
// print differ by under 0.01 once the light is out; new words in a band by 0.03–0.06.
constexpr double kChromaLimit = 0.03;
// Degrees a colour transform may turn hues about the grey axis and still be light.
constexpr double kMaxHueTurn = 15;
// Degrees the saturated ink's hue may turn once the photo is balanced on the cover's neutral
// parts (`inkHueTurn`): true photos measure 0–7, recoloured siblings 100–125.
constexpr double kMaxInkTurn = 45;
// A line of new words in a colour near the ground's breaks into patches of a few differing cells; the
// cells between them pass on colour and texture but stay darker (or lighter) than the light
// predicts, as the differing ones are. Such cells in the same row join the patch when the row it
// makes is at least kBridgeWidth cells long.
constexpr double kBridgeLuma = 0.10;
constexpr int kBridgeWidth = 4;
// A cell darker than the light predicts (log) by more than kShadowLuma, whose colour moved towards
// grey by at most kShadowDrift × the share of light lost and whose print is kept, lies in a shadow
// with edges too sharp for the smooth field (or is a dark part low light pressed darker still): not
// judged, as glare is not. A hand's shadow drifts 0.13–0.18 of its loss; a line of new dark words
// over a light ground 0.56–0.75.
constexpr double kShadowLuma = 0.15;
constexpr double kShadowDrift = 0.4;
// A glare cell's print counts as washed out while the contrast the glare leaves it is under this
// share of "flat". Every positive of every set kept its verdict down to 0.15; a new title's band
// under a lamp's spot showed 5 content cells at 1.0 and passed at 1.5.
constexpr double kWashedOut = 1.0;

/// Best zero-mean correlation of cell `r` of `c` with `p` over shifts of ±2 px: what is left of
/// the alignment error must not count as a difference.
double shiftedCorrelation(const cv::Mat &p, const cv::Mat &c, cv::Rect r, cv::Point *shift = nullptr) {
    cv::Mat tmpl = c(r), result;
    cv::Rect search(r.x - 2, r.y - 2, r.width + 4, r.height + 4);
    search &= cv::Rect(0, 0, p.cols, p.rows);
    if (search.width < r.width || search.height < r.height) return -1;
    cv::matchTemplate(p(search), tmpl, result, cv::TM_CCOEFF_NORMED);
    double best;
    cv::Point at;
    cv::minMaxLoc(result, nullptr, &best, nullptr, &at);
    if (shift) *shift = cv::Point(search.x + at.x - r.x, search.y + at.y - r.y);
    return std::isfinite(best) ? best : -1;
}

/// The chromaticity (r, g) of an RGB mean: brightness divided out.
void chroma(const double rgb[3], double out[2]) {
    double sum = rgb[0] + rgb[1] + rgb[2] + 1e-6;
    out[0] = rgb[0] / sum;
    out[1] = rgb[1] / sum;
}

/// How far the cover's saturated ink has turned in hue on the photo (median, degrees), once
/// the photo is white-balanced on the cover's neutral parts; −1 when the cover has too little of
/// either to say. A grey cover with a small coloured title gives the colour model nothing to go
/// on (the title is a few cells, diluted in grey), but its grey parts show the lamp exactly, and
/// a recoloured sibling's title then has another hue: teal ink does not turn olive under a lamp.
double inkHueTurn(const cv::Mat &photoRect, const cv::Mat &mask, const cv::Mat &coverRect) {
    cv::Mat p, c;
    cv::GaussianBlur(photoRect, p, cv::Size(0, 0), 1);
    cv::GaussianBlur(coverRect, c, cv::Size(0, 0), 1);
    double pn[3] = {0, 0, 0}, cn[3] = {0, 0, 0};
    int inside = 0, neutral = 0;
    for (int y = 0; y < c.rows; y++) {
        const cv::Vec3b *pr = p.ptr<cv::Vec3b>(y), *cr = c.ptr<cv::Vec3b>(y);
        const uint8_t *mr = mask.ptr<uint8_t>(y);
        for (int x = 0; x < c.cols; x++) {
            if (!mr[x]) continue;
            inside++;
            int hi = std::max({cr[x][0], cr[x][1], cr[x][2]}), lo = std::min({cr[x][0], cr[x][1], cr[x][2]});
            if (hi - lo > 20 || hi < 40 || hi > 235) continue;
            neutral++;
            for (int k = 0; k < 3; k++) {
                pn[k] += pr[x][k];
                cn[k] += cr[x][k];
            }
        }
    }
    if (inside == 0 || neutral < inside * 15 / 100) return -1;
    double gain[3];
    for (int k = 0; k < 3; k++) gain[k] = (pn[k] + 1) / (cn[k] + 1);
    auto hue = [](double r, double g, double b, double *chroma) {
        double a = r - (g + b) / 2, bb = 0.8660254 * (g - b);
        *chroma = std::hypot(a, bb);
        return std::atan2(bb, a) * 180 / M_PI;
    };
    std::vector<double> turns;
    int saturated = 0;
    for (int y = 0; y < c.rows; y++) {
        const cv::Vec3b *pr = p.ptr<cv::Vec3b>(y), *cr = c.ptr<cv::Vec3b>(y);
        const uint8_t *mr = mask.ptr<uint8_t>(y);
        for (int x = 0; x < c.cols; x++) {
            if (!mr[x]) continue;
            double cc, pc;
            double ch = hue(cr[x][0], cr[x][1], cr[x][2], &cc);
            double bright = std::max({cr[x][0], cr[x][1], cr[x][2]});
            if (cc < 30 || cc < 0.15 * bright) continue;
            saturated++;
            double r = pr[x][0] / gain[0], g = pr[x][1] / gain[1], b = pr[x][2] / gain[2];
            double ph = hue(r, g, b, &pc);
            if (pc < 0.08 * std::max({r, g, b}) || pc < 8) continue;  // Washed out (glare) or too dark to say.
            double d = std::fabs(ph - ch);
            turns.push_back(std::min(d, 360 - d));
        }
    }
    if (saturated < 40 || int(turns.size()) < saturated / 3) return -1;
    return median(turns, -1);
}

/// A patch that differs in colour only — every cell's print agrees — spread over a field (six
/// cells or more one way, three or more the other: a line of new words in a colour as light as
/// the ground is one row) and by a moderate amount (median chromaticity distance ≤ 0.08) is the camera
/// rendering one hue its own way (real photos: 0.03–0.07 over a whole colour field), not another
/// print: new words and logos bring strokes of their own, and a recoloured field moves far more.
bool colourRendering(const std::vector<int> &patch, int width, int height, const bool *textureBad,
                     const double *chromaDistance, const double *colourDetail) {
    if (std::max(width, height) < 6 || std::min(width, height) < 3) return false;
    std::vector<double> distances;
    for (int j : patch) {
        if (textureBad[j] || colourDetail[j] > 6) return false;
        distances.push_back(chromaDistance[j]);
    }
    return median(distances, 1) <= 0.08;
}

}  // namespace

int forgiveRingWear(const Cell *cells, const double *lumaResiduals, int *state) {
    // Ring wear: the record inside rubs a pale circle round the sleeve's centre. Cells that differ
    // only by being lighter, lying on one circle all the way round (six of eight directions), are
    // that ring, not print: new words lie along a line, a logo in one place.
    constexpr double kBand = 0.15;
    int bestOctants = 0, bestCount = 0;
    double bestRadius = 0;
    for (double radius = 0.55; radius <= 1.05; radius += 0.05) {
        int count = 0, octants = 0;
        for (int i = 0; i < kCells; i++) {
            if (state[i] != 3 || lumaResiduals[i] <= 0) continue;
            double r = std::hypot(cells[i].x, cells[i].y);
            if (std::fabs(r - radius) > kBand) continue;
            count++;
            int octant = int(std::floor((std::atan2(cells[i].y, cells[i].x) + M_PI) / (M_PI / 4))) & 7;
            octants |= 1 << octant;
        }
        int spread = __builtin_popcount(octants);
        if (spread > bestOctants || (spread == bestOctants && count > bestCount)) {
            bestOctants = spread;
            bestCount = count;
            bestRadius = radius;
        }
    }
    if (bestOctants < 6 || bestCount < 8) return 0;
    int forgiven = 0;
    for (int i = 0; i < kCells; i++) {
        if (state[i] == 3 && lumaResiduals[i] > 0 && std::fabs(std::hypot(cells[i].x, cells[i].y) - bestRadius) <= kBand) {
            state[i] = 2;
            forgiven++;
        }
    }
    return forgiven;
}

void compareCover(const cv::Mat &photoRect, const cv::Mat &mask, const cv::Mat &coverRect, crate_cover_check *out) {
    const int side = photoRect.cols, cell = side / kGrid;
    cv::Mat pg, cg, pf, cf;
    cv::cvtColor(photoRect, pg, cv::COLOR_RGB2GRAY);
    cv::cvtColor(coverRect, cg, cv::COLOR_RGB2GRAY);
    pg.convertTo(pg, CV_32F);
    cg.convertTo(cg, CV_32F);
    // Print detail only: a band-pass keeps strokes and texture and drops the smooth ramps that
    // light lays over the cover (a glare spot's slope is not print).
    cv::Mat pLow, cLow;
    cv::GaussianBlur(pg, pLow, cv::Size(0, 0), 5);
    cv::GaussianBlur(cg, cLow, cv::Size(0, 0), 5);
    cv::GaussianBlur(pg, pg, cv::Size(0, 0), 1.2);
    cv::GaussianBlur(cg, cg, cv::Size(0, 0), 1.2);
    cv::Mat pMean = pg.clone(), cMean = cg.clone();
    pg -= pLow;
    cg -= cLow;
    // Colour detail: the spread of a*b* in a cell (new words in a colour as light as the ground
    // show only here).
    cv::Mat pLab, cLab;
    cv::cvtColor(photoRect, pLab, cv::COLOR_RGB2Lab);
    cv::cvtColor(coverRect, cLab, cv::COLOR_RGB2Lab);
    cv::GaussianBlur(pLab, pLab, cv::Size(0, 0), 1.2);
    cv::GaussianBlur(cLab, cLab, cv::Size(0, 0), 1.2);
    double colourDetail[kCells] = {};
    photoRect.convertTo(pf, CV_32FC3, 1.0 / 255);
    coverRect.convertTo(cf, CV_32FC3, 1.0 / 255);

    Cell cells[kCells];
    std::vector<double> flatNoise;
    for (int i = 0; i < kCells; i++) {
        cv::Rect r((i % kGrid) * cell, (i / kGrid) * cell, cell, cell);
        Cell &s = cells[i];
        s.x = ((i % kGrid) + 0.5) / kGrid * 2 - 1;
        s.y = ((i / kGrid) + 0.5) / kGrid * 2 - 1;
        s.inside = cv::countNonZero(mask(r)) >= cell * cell * 9 / 10;
        if (!s.inside) continue;
        cv::Scalar pm, ps, cm, cs;
        cv::meanStdDev(pg(r), cv::noArray(), ps);
        cv::meanStdDev(cg(r), cv::noArray(), cs);
        pm = cv::mean(pMean(r));
        cm = cv::mean(cMean(r));
        cv::Scalar pc = cv::mean(pf(r)), cc = cv::mean(cf(r));
        for (int k = 0; k < 3; k++) {
            s.p[k] = pc[k];
            s.c[k] = cc[k];
        }
        s.pLum = pm[0] / 255;
        s.cLum = cm[0] / 255;
        s.pStd = ps[0];
        s.cStd = cs[0];
        cv::Scalar pls, cls, unused;
        cv::meanStdDev(pLab(r), unused, pls);
        cv::meanStdDev(cLab(r), unused, cls);
        colourDetail[i] = std::max(pls[1] - cls[1], pls[2] - cls[2]);
        if (s.cStd < 2) flatNoise.push_back(s.pStd);
    }
    // The photo's noise: what flat parts of the cover show in it (low light, JPEG blocks). The
    // lower quartile, not the median: wear and a ring add structure to some of those cells, and a
    // noise read from them let new words pass as flat (a reissue logo under ring wear).
    double noise = 0;
    if (!flatNoise.empty()) {
        std::sort(flatNoise.begin(), flatNoise.end());
        noise = flatNoise[(flatNoise.size() - 1) / 4];
    }
    // Below this a cell's structure is "flat": 5 grey levels of print, or the noise's share. Where the
    // light is dim the print's contrast is dimmed with it, the sensor's noise is not, so only the
    // print's part scales with the light (an angled cover under a gradient kept its print at 4–5
    // grey levels, 0.45 of the light).
    auto flatAt = [noise](double light) { return std::max(1.5 * noise + 2, 5.0 * std::min(1.0, light)); };
    const double flat = flatAt(1.0);
    std::vector<double> field = brightnessField(cells);
    std::vector<double> ratios;
    for (int i = 0; i < kCells; i++) {
        if (cells[i].inside) ratios.push_back(std::log((cells[i].pLum + 0.01) / (cells[i].cLum + 0.01)));
    }
    const double exposure = median(ratios, 0);
    ColourModel colourModel = fitColour(cells, field);
    std::vector<double> regional = regionalGains(cells, colourModel, field);

    // Each cell: 0 outside, 1 agrees, 2 light (washed out by glare or wear, or in a shadow: not judged), 3 differs.
    int state[kCells] = {};
    bool textureBad[kCells] = {};
    double chromaDistance[kCells] = {}, lumaResiduals[kCells] = {};
    int seen = 0, structure = 0, colour = 0, both = 0, printSeen = 0;
    for (int i = 0; i < kCells; i++) {
        const Cell &s = cells[i];
        if (!s.inside) continue;
        double pred[3], pc[2], cc[2];
        colourModel.predict(s.c, pred);
        for (int k = 0; k < 3; k++) pred[k] *= regional[i * 3 + k];
        double lit[3];
        for (int k = 0; k < 3; k++) lit[k] = s.p[k] / std::exp(field[i]);
        chroma(lit, pc);
        chroma(pred, cc);
        double lumaResidual = std::log((s.pLum + 0.01) / (s.cLum + 0.01)) - field[i];
        lumaResiduals[i] = lumaResidual;
        // Glare and rubbed-off ink add white: lighter than the light elsewhere (or than the field,
        // which a large spot partly bends), and the colour moves straight towards grey, no new print.
        bool lighter = lumaResidual > 0.05 || std::log((s.pLum + 0.01) / (s.cLum + 0.01)) - exposure > 0.15;
        double vx = pc[0] - cc[0], vy = pc[1] - cc[1], wx = 1.0 / 3 - cc[0], wy = 1.0 / 3 - cc[1];
        double ww = wx * wx + wy * wy, t = ww > 1e-6 ? (vx * wx + vy * wy) / ww : 0;
        double offLine = std::hypot(vx - t * wx, vy - t * wy);
        bool whitened = t > 0.05 && t < 1.3 && offLine <= 0.015 + 0.35 * std::hypot(vx, vy);
        // Under glare the cover's print is still there, only fainter, or washed out altogether.
        cv::Rect r((i % kGrid) * cell, (i / kGrid) * cell, cell, cell);
        // Washed out means the glare compressed the print below flat: a screen-like glare leaves
        // (1 − photo) / (1 − cover) of its contrast. Where that is still clearly print and the photo
        // is flat, the print is gone, not washed out (a new title's band under a lamp's spot).
        bool washedOut = s.pStd < flat;
        if (washedOut && lighter && s.cStd >= 5) {
            double left = std::clamp((1 - s.pLum) / std::max(0.05, 1 - s.cLum), 0.0, 1.0);
            washedOut = s.cStd * left * std::min(1.0, std::exp(exposure)) < kWashedOut * flat;
        }
        bool printKept = washedOut || (s.cStd < 5 ? s.pStd <= 1.3 * s.cStd + flat : shiftedCorrelation(pg, cg, r) >= 0.5);
        // A shadow (a hand, the photographer) takes light away and leaves the room's, so the colour
        // may drift towards grey, but by no more than the share of light taken away.
        bool shaded = lumaResidual < -kShadowLuma && std::hypot(vx, vy) <= kShadowDrift * (1 - std::exp(lumaResidual));
        if ((lighter || shaded) && whitened && printKept) {
            state[i] = 2;
            // Not judged, but where the cover has print and the photo's still matches it, the
            // cover was seen there: a dark cover under a lamp's haze is otherwise mostly "unseen".
            // A plain sheet over the cover (flat in the photo) is not counted.
            printSeen += s.cStd >= 5 && s.pStd >= flat;
            continue;
        }
        seen++;
        // Texture, with the photo's contrast brought back to the cover's light: print added where
        // the cover is plain is content; contrast lost is often blur or haze, so the shape decides.
        bool textureOK;
        double pStdLit = s.pStd / std::exp(field[i]);
        bool pFlat = s.pStd < flatAt(std::exp(field[i])), cFlat = s.cStd < 5;
        if (pFlat && cFlat) textureOK = true;
        else if (pStdLit > 2.0 * s.cStd + flat) textureOK = false;
        else if (cFlat) textureOK = true;
        else if (pFlat) textureOK = s.cStd < 8;
        cv::Point shift(0, 0);
        if (!pFlat && !cFlat && !(pStdLit > 2.0 * s.cStd + flat)) textureOK = shiftedCorrelation(pg, cg, r, &shift) >= 0.5;
        // Colour: chromaticity once the cast is out; too dark to tell, brightness must at least agree.
        bool dark = s.pLum < 0.05 || s.cLum < 0.05;
        chromaDistance[i] = std::hypot(pc[0] - cc[0], pc[1] - cc[1]);
        // Where the print matched a pixel or two away (the alignment's residual), the photo's
        // colour is taken there too: a sharp colour edge otherwise reads as another ink. Only
        // print that matched moves — a band of new words has none.
        if (textureOK && shift != cv::Point(0, 0) && chromaDistance[i] > kChromaLimit) {
            cv::Rect moved = cv::Rect(r.x + shift.x, r.y + shift.y, cell, cell) & cv::Rect(0, 0, side, side);
            if (moved.area() == cell * cell) {
                cv::Scalar m = cv::mean(pf(moved));
                double movedLit[3] = {m[0] / std::exp(field[i]), m[1] / std::exp(field[i]), m[2] / std::exp(field[i])}, mc[2];
                chroma(movedLit, mc);
                chromaDistance[i] = std::min(chromaDistance[i], std::hypot(mc[0] - cc[0], mc[1] - cc[1]));
            }
        }
        bool colourOK = dark ? std::fabs(lumaResidual) < 1.0 : chromaDistance[i] <= kChromaLimit;
        structure += textureOK;
        colour += colourOK;
        both += textureOK && colourOK;
        state[i] = textureOK && colourOK ? 1 : 3;
        textureBad[i] = !textureOK;
    }

    // Cells taken as ring wear are no longer judged, as glare is not: the ring's cells all differed.
    seen -= forgiveRingWear(cells, lumaResiduals, state);

    // Where it differs: patches of differing cells.
    int occluded = 0, content = 0;
    bool done[kCells] = {};
    for (int i = 0; i < kCells; i++) {
        if (state[i] != 3 || done[i]) continue;
        std::vector<int> stack = {i}, patch, bridges;
        done[i] = true;
        int x0 = kGrid, y0 = kGrid, x1 = -1, y1 = -1;
        int edgeCells = 0;
        while (!stack.empty()) {
            int j = stack.back();
            stack.pop_back();
            patch.push_back(j);
            int x = j % kGrid, y = j / kGrid;
            x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
            edgeCells += x == 0 || y == 0 || x == kGrid - 1 || y == kGrid - 1;
            // Neighbours reach two cells sideways: a line of new lettering breaks into pieces
            // where its letters leave gaps, and is still one line.
            for (int dy = -1; dy <= 1; dy++) {
                for (int dx = -2; dx <= 2; dx++) {
                    int nx = x + dx, ny = y + dy, n = ny * kGrid + nx;
                    if (nx < 0 || ny < 0 || nx >= kGrid || ny >= kGrid || done[n]) continue;
                    if (state[n] == 3) {
                        done[n] = true;
                        stack.push_back(n);
                    } else if (state[j] == 3 && state[n] == 1 && dy == 0 && std::fabs(lumaResiduals[n]) >= kBridgeLuma &&
                               lumaResiduals[n] * lumaResiduals[j] > 0) {
                        done[n] = true;
                        bridges.push_back(n);
                    }
                }
            }
        }
        int size = int(patch.size());
        // Bridged cells (agreeing in colour and texture but darker or lighter like the patch) join a
        // line of new words broken by its letters' gaps; only a patch of one row, as words are.
        if (!bridges.empty() && y0 == y1) {
            int bx0 = x0, bx1 = x1;
            for (int b : bridges) bx0 = std::min(bx0, b % kGrid), bx1 = std::max(bx1, b % kGrid);
            if (bx1 - bx0 + 1 >= kBridgeWidth) size += int(bridges.size());
        }
        bool strip = (x1 == x0 && (x0 == 0 || x0 == kGrid - 1)) || (y1 == y0 && (y0 == 0 || y0 == kGrid - 1));
        // Something lying over the sleeve comes in over its edge and covers less than half of it
        // either way; a one-cell strip along an edge is the outline's own misfit. Anything else of
        // three cells or more is another print.
        bool overEdge = 3 * edgeCells >= size && x1 - x0 < kGrid / 2 && y1 - y0 < kGrid / 2;
        if (overEdge || strip) occluded += size;
        else if (size >= 3 && !colourRendering(patch, x1 - x0 + 1, y1 - y0 + 1, textureBad, chromaDistance, colourDetail)) content += size;
    }

    // A transform that turns hues far is no lamp: the whole cover is printed in other colours.
    if (colourModel.hueTurn > kMaxHueTurn) content = seen;
    double ink = inkHueTurn(photoRect, mask, coverRect);
    if (ink > kMaxInkTurn) content = seen;

    static const bool map = std::getenv("CRATE_COVER_CHECK_MAP") != nullptr;
    if (map) {
        double grey[3] = {0.5, 0.5, 0.5}, g2[3], gc[2];
        colourModel.predict(grey, g2);
        chroma(g2, gc);
        std::fprintf(stderr, "  gains %.2f %.2f %.2f turn %.0f° ink turn %.0f° grey shift %.3f noise %.1f\n", colourModel.m[0][0], colourModel.m[1][1],
                     colourModel.m[2][2], colourModel.hueTurn, ink, std::hypot(gc[0] - 1.0 / 3, gc[1] - 1.0 / 3), noise);
        for (int i = 0; i < kCells; i++) {
            if (i % kGrid == 0) std::fputs("  |", stderr);
            std::fputc(state[i] == 3 && !textureBad[i] ? 'c' : " .gX"[state[i]], stderr);
            if (i % kGrid == kGrid - 1) {
                std::fputs("|", stderr);
                for (int j = i - kGrid + 1; j <= i; j++) std::fprintf(stderr, " %2d/%+3d", int(std::min(99.0, chromaDistance[j] * 1000)), int(std::max(-99.0, std::min(99.0, lumaResiduals[j] * 100))));
                std::fputs("\n", stderr);
            }
        }
    }
    out->visible = float(seen + printSeen) / kCells;
    out->structure = seen ? float(structure) / seen : 0;
    out->colour = seen ? float(colour) / seen : 0;
    out->agreement = seen ? float(both) / seen : 0;
    out->occluded = float(occluded) / kCells;
    out->content = content;
}

}  // namespace cratecheck
