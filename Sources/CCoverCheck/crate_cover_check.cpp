// Tier-0 verification: does this photo really show this cover? (docs/decisions, "Tier 0 verification")
// OpenCV stays inside this file; Swift sees only the C interface in crate_cover_check.h.
#include "crate_plugins.h"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/video/tracking.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

constexpr int kPhotoSide = 512;   // Longest side the photo is matched at.
constexpr int kCoverSide = 400;   // The cover's side for feature matching.
constexpr int kRectSide = 192;    // The rectified comparison square.
constexpr int kGrid = 12;         // kGrid × kGrid cells of 16 px.

cv::Mat wrap(const uint8_t *pixels, int width, int height) {
    return cv::Mat(height, width, CV_8UC3, const_cast<uint8_t *>(pixels), static_cast<size_t>(width) * 3);
}

cv::Mat resizedTo(const cv::Mat &src, int width, int height) {
    cv::Mat out;
    cv::resize(src, out, cv::Size(width, height), 0, 0, cv::INTER_AREA);
    return out;
}

double cross(cv::Point2f o, cv::Point2f a, cv::Point2f b) {
    return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

/// The cover's corners under `h` must form a convex, same-handed quad of sensible size and shape:
/// a homography fitted to a few repeated textures can fold or shrink the cover to a sliver.
bool plausible(const cv::Mat &h, cv::Size photo) {
    std::vector<cv::Point2f> corners = {{0, 0}, {kCoverSide, 0}, {kCoverSide, kCoverSide}, {0, kCoverSide}};
    std::vector<cv::Point2f> mapped;
    cv::perspectiveTransform(corners, mapped, h);
    for (int i = 0; i < 4; i++) {
        if (cross(mapped[i], mapped[(i + 1) % 4], mapped[(i + 2) % 4]) <= 0) return false;
    }
    double area = std::fabs(cv::contourArea(mapped));
    double photoArea = double(photo.width) * photo.height;
    if (area < 0.08 * photoArea || area > 4.0 * photoArea) return false;
    double sides[4];
    for (int i = 0; i < 4; i++) sides[i] = cv::norm(mapped[i] - mapped[(i + 1) % 4]);
    double lo = *std::min_element(sides, sides + 4), hi = *std::max_element(sides, sides + 4);
    return lo > 0 && hi / lo < 1.8;
}

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

void compareCells(const cv::Mat &photoRect, const cv::Mat &mask, const cv::Mat &coverRect, crate_cover_check *out) {
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
    const int cell = kRectSide / kGrid;
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

/// A square of the photo (at kSearchSide scale) and the quarter turns that bring the cover onto it.
struct Square {
    double x = 0, y = 0, side = 0;
    int turns = 0;
    double score = -2;
};

cv::Mat zeroMeanUnit(const cv::Mat &grey) {
    cv::Mat f;
    grey.convertTo(f, CV_32F);
    f -= cv::mean(f)[0];
    double n = cv::norm(f);
    if (n > 1e-6) f /= n;
    return f;
}

/// The photo seen through `warp` (cover coordinates → photo), at the cover's size.
cv::Mat warpedTo(const cv::Mat &photo, const cv::Mat &warp, cv::Size size) {
    cv::Mat out;
    cv::warpPerspective(photo, out, warp, size, cv::INTER_LINEAR | cv::WARP_INVERSE_MAP);
    return out;
}

/// Which quarter turn of the cover best matches the square (zero-mean correlation at 32 px).
Square chooseTurn(const cv::Mat &photoGray, Square sq, const cv::Mat &coverGray) {
    constexpr int n = 32;
    cv::Rect r(int(std::lround(sq.x)), int(std::lround(sq.y)), int(std::lround(sq.side)), int(std::lround(sq.side)));
    r &= cv::Rect(0, 0, photoGray.cols, photoGray.rows);
    if (r.width < 8 || r.height < 8) return sq;
    cv::Mat crop = zeroMeanUnit(resizedTo(photoGray(r), n, n));
    cv::Mat t = zeroMeanUnit(resizedTo(coverGray, n, n)), turned;
    for (int k = 0; k < 4; k++) {
        if (k == 0) turned = t;
        else cv::rotate(t, turned, k == 1 ? cv::ROTATE_90_CLOCKWISE : k == 2 ? cv::ROTATE_180 : cv::ROTATE_90_COUNTERCLOCKWISE);
        double score = crop.dot(turned);
        if (score > sq.score) {
            sq.score = score;
            sq.turns = k;
        }
    }
    return sq;
}

/// The homography taking cover coordinates (0…side) to the photo square, turned `turns` times
/// clockwise.
cv::Mat squareHomography(const Square &sq, double coverSide) {
    double n = coverSide;
    // Cover point (u, v) → turned point, as cv::rotate moves pixels.
    cv::Mat turn;
    switch (sq.turns) {
    case 1: turn = (cv::Mat_<double>(3, 3) << 0, -1, n, 1, 0, 0, 0, 0, 1); break;
    case 2: turn = (cv::Mat_<double>(3, 3) << -1, 0, n, 0, -1, n, 0, 0, 1); break;
    case 3: turn = (cv::Mat_<double>(3, 3) << 0, 1, 0, -1, 0, n, 0, 0, 1); break;
    default: turn = cv::Mat::eye(3, 3, CV_64F); break;
    }
    double k = sq.side / n;
    cv::Mat place = (cv::Mat_<double>(3, 3) << k, 0, sq.x, 0, k, sq.y, 0, 0, 1);
    return place * turn;
}

void run(const uint8_t *photo, int pw, int ph, const uint8_t *cover, int cw, int chh, const double *square,
         crate_cover_check_limits limits, crate_cover_check *out) {
    constexpr int kAlignCover = 128;   // Cover side for the alignment.
    double scale = double(kPhotoSide) / std::max(pw, ph);
    cv::Mat photoRGB = wrap(photo, pw, ph);
    cv::Mat small = scale < 1 ? resizedTo(photoRGB, int(std::lround(pw * scale)), int(std::lround(ph * scale))) : photoRGB.clone();
    cv::Mat coverSmall = resizedTo(wrap(cover, cw, chh), kAlignCover, kAlignCover);
    cv::Mat photoGray, coverGray;
    cv::cvtColor(small, photoGray, cv::COLOR_RGB2GRAY);
    cv::cvtColor(coverSmall, coverGray, cv::COLOR_RGB2GRAY);

    Square start;
    start.x = square[0] * scale;
    start.y = square[1] * scale;
    start.side = square[2] * scale;
    Square sq = chooseTurn(photoGray, start, coverGray);
    out->search = float(sq.score);
    cv::Mat h0 = squareHomography(sq, kAlignCover);
    cv::Mat warp;
    h0.convertTo(warp, CV_32F);
    try {
        // Coarse to fine: half size first, then full.
        cv::Mat halfWarp = warp.clone();
        halfWarp.at<float>(0, 2) /= 2;
        halfWarp.at<float>(1, 2) /= 2;
        halfWarp.at<float>(2, 0) *= 2;
        halfWarp.at<float>(2, 1) *= 2;
        cv::Mat coverHalf = resizedTo(coverGray, kAlignCover / 2, kAlignCover / 2);
        cv::Mat photoHalf = resizedTo(photoGray, photoGray.cols / 2, photoGray.rows / 2);
        // The template at half size: its coordinates are half, so conjugate by the scaling.
        cv::Mat s2 = (cv::Mat_<float>(3, 3) << 2, 0, 0, 0, 2, 0, 0, 0, 1);
        cv::Mat s2i = (cv::Mat_<float>(3, 3) << 0.5f, 0, 0, 0, 0.5f, 0, 0, 0, 1);
        halfWarp = s2i * warp * s2;
        // An affine fit at half size first (few parameters: it converges on flat covers too),
        // then the full homography; if that one does not converge, the affine fit stands.
        cv::Mat affine = halfWarp(cv::Rect(0, 0, 3, 2)).clone();
        try {
            cv::findTransformECC(coverHalf, photoHalf, affine, cv::MOTION_TRANSLATION,
                                 cv::TermCriteria(cv::TermCriteria::COUNT | cv::TermCriteria::EPS, 30, 1e-4), cv::noArray(), 5);
        } catch (const cv::Exception &) {
            affine = halfWarp(cv::Rect(0, 0, 3, 2)).clone();
        }
        cv::findTransformECC(coverHalf, photoHalf, affine, cv::MOTION_AFFINE,
                             cv::TermCriteria(cv::TermCriteria::COUNT | cv::TermCriteria::EPS, 40, 1e-4), cv::noArray(), 5);
        affine.copyTo(halfWarp(cv::Rect(0, 0, 3, 2)));
        halfWarp.at<float>(2, 0) = 0;
        halfWarp.at<float>(2, 1) = 0;
        halfWarp.at<float>(2, 2) = 1;
        warp = s2 * halfWarp * s2i;
        cv::Mat refined = warp.clone();
        try {
            out->correlation = float(cv::findTransformECC(coverGray, photoGray, refined, cv::MOTION_HOMOGRAPHY,
                                                          cv::TermCriteria(cv::TermCriteria::COUNT | cv::TermCriteria::EPS, 30, 1e-4),
                                                          cv::noArray(), 5));
            warp = refined;
        } catch (const cv::Exception &) {
            out->correlation = float(cv::computeECC(coverGray, warpedTo(photoGray, warp, coverGray.size())));
        }
    } catch (const cv::Exception &) {
        out->status = 3;
        return;
    }
    cv::Mat h;
    warp.convertTo(h, CV_64F);
    // plausible() works in kCoverSide units.
    cv::Mat toAlign = (cv::Mat_<double>(3, 3) << double(kAlignCover) / kCoverSide, 0, 0, 0, double(kAlignCover) / kCoverSide, 0, 0, 0, 1);
    if (!plausible(h * toAlign, small.size())) {
        out->status = 4;
        return;
    }
    // Rectify: each pixel of the comparison square, through the cover's frame, into the photo.
    cv::Mat toCover = (cv::Mat_<double>(3, 3) << double(kAlignCover) / kRectSide, 0, 0, 0, double(kAlignCover) / kRectSide, 0, 0, 0, 1);
    cv::Mat m = h * toCover;
    cv::Mat photoRect, mask;
    cv::warpPerspective(small, photoRect, m, cv::Size(kRectSide, kRectSide), cv::INTER_LINEAR | cv::WARP_INVERSE_MAP,
                        cv::BORDER_CONSTANT, cv::Scalar(0, 0, 0));
    cv::Mat ones(small.size(), CV_8UC1, cv::Scalar(255));
    cv::warpPerspective(ones, mask, m, cv::Size(kRectSide, kRectSide), cv::INTER_NEAREST | cv::WARP_INVERSE_MAP,
                        cv::BORDER_CONSTANT, cv::Scalar(0));
    cv::Mat coverRect = resizedTo(wrap(cover, cw, chh), kRectSide, kRectSide);
    compareCells(photoRect, mask, coverRect, out);
    out->status = 0;
    out->accepted = out->correlation >= limits.min_correlation && out->visible >= limits.min_visible &&
                    (out->agreement >= limits.min_agreement ||
                     (out->correlation >= limits.close_correlation && out->agreement >= limits.min_agreement_when_close));
}

}  // namespace

static crate_cover_check_limits crate_cover_check_defaults(void) {
    crate_cover_check_limits limits;
    // Calibrated with crate-bench calibrate (docs/performance.md): true photos agree on 0.77–1.0
    // of their cells, and the ones under 0.95 all correlate at 0.91 or more; the hard negatives
    // that align reach 0.93 agreement (a re-titled starfield, correlation 0.56) and 0.85
    // correlation (a re-titled tissue cover, agreement 0.92).
    limits.min_correlation = 0.3f;
    limits.min_agreement = 0.95f;
    limits.close_correlation = 0.9f;
    limits.min_agreement_when_close = 0.75f;
    limits.min_visible = 0.7f;
    return limits;
}

static void crate_cover_check_run(const uint8_t *photo, int32_t photo_width, int32_t photo_height,
                                      const uint8_t *cover, int32_t cover_width, int32_t cover_height,
                                      double square_x, double square_y, double square_side,
                                      crate_cover_check_limits limits, crate_cover_check *out) {
    if (!out) return;
    *out = crate_cover_check{};
    if (!photo || !cover || photo_width < 32 || photo_height < 32 || cover_width < 32 || cover_height < 32 ||
        !(square_side >= 16) || !(square_x > -square_side) || !(square_y > -square_side) ||
        square_x > photo_width || square_y > photo_height) {
        out->status = 1;
        return;
    }
    try {
        const double square[3] = {square_x, square_y, square_side};
        run(photo, photo_width, photo_height, cover, cover_width, cover_height, square, limits, out);
    } catch (...) {
        *out = crate_cover_check{};
        out->status = 5;
    }
}

extern "C" const crate_cover_check_table *crate_cover_check_plugin(void) {
    static const crate_cover_check_table table = {
        CRATE_PLUGIN_ABI_VERSION, sizeof(crate_cover_check_table), crate_cover_check_defaults, crate_cover_check_run,
    };
    return &table;
}
