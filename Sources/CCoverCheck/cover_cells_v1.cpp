// Tier-0 verification, first method (decision 0015): cells compared in texture (zero-mean
// correlation) and mean colour (a*b* within 22), highlights left out. Still the default: the
// light-aware method (cover_compare.cpp, decision 0039) is measured against it.
#include "cover_compare.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace cratecheck {
namespace {

/// Best zero-mean correlation of the cover cell `r` (in `c`) with the photo (`p`) over shifts of
/// ±2 px: what is left of the alignment error must not count as a difference, a different print must.
double shiftedCorrelation(const cv::Mat &p, const cv::Mat &c, cv::Rect r) {
    const int n = r.width * r.height;
    float b[32 * 32];
    double sb = 0;
    for (int y = 0; y < r.height; y++) {
        const float *row = c.ptr<float>(r.y + y) + r.x;
        for (int x = 0; x < r.width; x++) sb += b[y * r.width + x] = row[x];
    }
    double mb = sb / n, bb = 0;
    for (int i = 0; i < n; i++) {
        b[i] -= float(mb);
        bb += double(b[i]) * b[i];
    }
    double best = -1;
    for (int sy = -2; sy <= 2; sy++) {
        for (int sx = -2; sx <= 2; sx++) {
            int x0 = r.x + sx, y0 = r.y + sy;
            if (x0 < 0 || y0 < 0 || x0 + r.width > p.cols || y0 + r.height > p.rows) continue;
            double sa = 0, saa = 0, sab = 0;
            for (int y = 0; y < r.height; y++) {
                const float *row = p.ptr<float>(y0 + y) + x0;
                const float *brow = b + y * r.width;
                for (int x = 0; x < r.width; x++) {
                    double a = row[x];
                    sa += a;
                    saa += a * a;
                    sab += a * brow[x];
                }
            }
            double va = saa - sa * sa / n;
            best = std::max(best, sab / (std::sqrt(std::max(va, 0.0) * bb) + 1e-6));
        }
    }
    return best;
}

struct CellStats {
    bool inside = false;
    double pL = 0, cL = 0, pStd = 0, cStd = 0, pa = 0, pb = 0, ca = 0, cb = 0;
};

}  // namespace

void compareCellsV1(const cv::Mat &photoRect, const cv::Mat &mask, const cv::Mat &coverRect, crate_cover_check *out) {
    cv::Mat pg, cg, pLab, cLab;
    cv::cvtColor(photoRect, pg, cv::COLOR_RGB2GRAY);
    cv::cvtColor(coverRect, cg, cv::COLOR_RGB2GRAY);
    pg.convertTo(pg, CV_32F);
    cg.convertTo(cg, CV_32F);
    cv::GaussianBlur(pg, pg, cv::Size(0, 0), 1.2);
    cv::GaussianBlur(cg, cg, cv::Size(0, 0), 1.2);
    cv::Mat pf, cf;
    photoRect.convertTo(pf, CV_32FC3, 1.0 / 255);
    coverRect.convertTo(cf, CV_32FC3, 1.0 / 255);
    cv::cvtColor(pf, pLab, cv::COLOR_RGB2Lab);
    cv::cvtColor(cf, cLab, cv::COLOR_RGB2Lab);
    const int cell = photoRect.cols / kGrid;
    CellStats cells[kGrid * kGrid];
    std::vector<double> offsets;
    for (int i = 0; i < kGrid * kGrid; i++) {
        cv::Rect r((i % kGrid) * cell, (i / kGrid) * cell, cell, cell);
        CellStats &st = cells[i];
        st.inside = cv::countNonZero(mask(r)) >= cell * cell * 9 / 10;
        if (!st.inside) continue;
        cv::Scalar pm, ps, cm, cs;
        cv::meanStdDev(pg(r), pm, ps);
        cv::meanStdDev(cg(r), cm, cs);
        cv::Scalar pc = cv::mean(pLab(r)), cc = cv::mean(cLab(r));
        st.pStd = ps[0];
        st.cStd = cs[0];
        st.pL = pc[0];
        st.cL = cc[0];
        st.pa = pc[1];
        st.pb = pc[2];
        st.ca = cc[1];
        st.cb = cc[2];
        offsets.push_back(st.pL - st.cL);
    }
    // The photo's overall exposure: the median lightness difference.
    double offset = 0;
    if (!offsets.empty()) {
        std::nth_element(offsets.begin(), offsets.begin() + offsets.size() / 2, offsets.end());
        offset = offsets[offsets.size() / 2];
    }
    int seen = 0, structure = 0, colour = 0, both = 0;
    // CRATE_COVER_CHECK_MAP=1: the cell map on stderr (. agrees, T texture, C colour, X both,
    // g glare, space outside the photo).
    static const bool map = std::getenv("CRATE_COVER_CHECK_MAP") != nullptr;
    for (int i = 0; i < kGrid * kGrid; i++) {
        if (map && i % kGrid == 0) std::fputs("  |", stderr);
        const CellStats &st = cells[i];
        char mark = ' ';
        if (st.inside) {
            double pChroma = std::hypot(st.pa, st.pb), cChroma = std::hypot(st.ca, st.cb);
            // A highlight adds white light: lighter, less saturated, no new print.
            bool glare = st.pL - st.cL - offset > 12 && (pChroma < 0.85 * cChroma || cChroma < 12) &&
                         st.pStd <= 1.1 * st.cStd + 2;
            if (glare) {
                mark = 'g';
            } else {
                seen++;
                cv::Rect r((i % kGrid) * cell, (i / kGrid) * cell, cell, cell);
                bool textureOK;
                if (st.pStd < 5 && st.cStd < 5) {
                    textureOK = true;  // Both flat.
                } else if (st.pStd < 3 || st.cStd < 3) {
                    textureOK = false;  // Print on one side only.
                } else {
                    textureOK = shiftedCorrelation(pg, cg, r) >= 0.5;
                }
                bool colourOK = std::hypot(st.pa - st.ca, st.pb - st.cb) <= 22;
                structure += textureOK;
                colour += colourOK;
                both += textureOK && colourOK;
                mark = textureOK ? (colourOK ? '.' : 'C') : (colourOK ? 'T' : 'X');
            }
        }
        if (map) std::fputc(mark, stderr);
        if (map && i % kGrid == kGrid - 1) std::fputs("|\n", stderr);
    }
    const int total = kGrid * kGrid;
    out->visible = float(seen) / total;
    out->structure = seen ? float(structure) / seen : 0;
    out->colour = seen ? float(colour) / seen : 0;
    out->agreement = seen ? float(both) / seen : 0;
}

}  // namespace cratecheck
