// Tier-0 verification: does this photo really show this cover? (docs/decisions, "Tier 0 verification")
// OpenCV stays inside this file; Swift sees only the C interface in crate_cover_check.h.
#include "cover_compare.hpp"
#include "cover_features.hpp"
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
constexpr int kRectSide = 192;    // The rectified comparison square (cratecheck::kGrid cells a side).

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

/// The square inside `sq` (its side 0.5–1 of `sq`'s, anywhere in it) and the quarter turn where
/// the cover correlates best at 32 px: the hash's square can hold much more than the cover (a
/// plain cover gives the hash little to tell the whole frame from the cover in it).
Square searchStart(const cv::Mat &photoGray, Square sq, const cv::Mat &coverGray) {
    constexpr int n = 32;
    cv::Rect r(int(std::lround(sq.x)), int(std::lround(sq.y)), int(std::lround(sq.side)), int(std::lround(sq.side)));
    r &= cv::Rect(0, 0, photoGray.cols, photoGray.rows);
    Square best = chooseTurn(photoGray, sq, coverGray);
    if (r.width < 16 || r.height < 16) return best;
    cv::Mat t = resizedTo(coverGray, n, n), turned[4];
    t.convertTo(t, CV_32F);
    turned[0] = t;
    cv::rotate(t, turned[1], cv::ROTATE_90_CLOCKWISE);
    cv::rotate(t, turned[2], cv::ROTATE_180);
    cv::rotate(t, turned[3], cv::ROTATE_90_COUNTERCLOCKWISE);
    for (double scale : {0.9, 0.8, 0.7, 0.6, 0.5}) {
        double k = n / (scale * sq.side);  // photo pixels → search pixels
        cv::Mat region = resizedTo(photoGray(r), std::max(n, int(std::lround(r.width * k))), std::max(n, int(std::lround(r.height * k))));
        region.convertTo(region, CV_32F);
        for (int turn = 0; turn < 4; turn++) {
            cv::Mat result;
            cv::matchTemplate(region, turned[turn], result, cv::TM_CCOEFF_NORMED);
            double score;
            cv::Point at;
            cv::minMaxLoc(result, nullptr, &score, nullptr, &at);
            if (std::isfinite(score) && score > best.score) {
                best.score = score;
                best.turns = turn;
                best.side = scale * sq.side;
                best.x = r.x + at.x / k;
                best.y = r.y + at.y / k;
            }
        }
    }
    return best;
}

/// The homography taking cover coordinates (0…side) to the photo square, turned `turns` times
/// clockwise.
cv::Mat turnMatrix(int turns, double n) {
    // Cover point (u, v) → turned point, as cv::rotate moves pixels.
    cv::Mat turn;
    switch (turns) {
    case 1: turn = (cv::Mat_<double>(3, 3) << 0, -1, n, 1, 0, 0, 0, 0, 1); break;
    case 2: turn = (cv::Mat_<double>(3, 3) << -1, 0, n, 0, -1, n, 0, 0, 1); break;
    case 3: turn = (cv::Mat_<double>(3, 3) << 0, 1, 0, -1, 0, n, 0, 0, 1); break;
    default: turn = cv::Mat::eye(3, 3, CV_64F); break;
    }
    return turn;
}

cv::Mat squareHomography(const Square &sq, double coverSide) {
    double n = coverSide;
    cv::Mat turn = turnMatrix(sq.turns, n);
    double k = sq.side / n;
    cv::Mat place = (cv::Mat_<double>(3, 3) << k, 0, sq.x, 0, k, sq.y, 0, 0, 1);
    return place * turn;
}

constexpr int kAlignCover = 128;  // Cover side for the alignment.
/// Luma that keeps under this share of the cover's strongest colour axis's spread is no grey to
/// align on (a grey axis keeps 0.58 of it; the violet and orange text cover 0.03).
constexpr double kColourAxisRatio = 0.3;

/// Refines `warp` (cover → photo, CV_32F) to a full homography by ECC; if that does not converge
/// the warp stands. Returns the correlation at the final warp.
double refine(const cv::Mat &photoGray, const cv::Mat &coverGray, cv::Mat &warp) {
    cv::Mat refined = warp.clone();
    try {
        double c = cv::findTransformECC(coverGray, photoGray, refined, cv::MOTION_HOMOGRAPHY,
                                        cv::TermCriteria(cv::TermCriteria::COUNT | cv::TermCriteria::EPS, 30, 1e-4), cv::noArray(), 5);
        warp = refined;
        return c;
    } catch (const cv::Exception &) {
        return cv::computeECC(coverGray, warpedTo(photoGray, warp, coverGray.size()));
    }
}

/// Grows the hash's square into a homography (cover at kAlignCover → photo): translation and
/// affine by ECC at half size, then a full homography (if that one does not converge, the affine
/// fit stands). Returns the correlation, or throws cv::Exception when nothing converges.
double alignFromSquare(const cv::Mat &photoGray, const cv::Mat &coverGray, const Square &sq, cv::Mat &h) {
    cv::Mat warp;
    squareHomography(sq, kAlignCover).convertTo(warp, CV_32F);
    cv::Mat coverHalf = resizedTo(coverGray, kAlignCover / 2, kAlignCover / 2);
    cv::Mat photoHalf = resizedTo(photoGray, photoGray.cols / 2, photoGray.rows / 2);
    // The template at half size: its coordinates are half, so conjugate by the scaling.
    cv::Mat s2 = (cv::Mat_<float>(3, 3) << 2, 0, 0, 0, 2, 0, 0, 0, 1);
    cv::Mat s2i = (cv::Mat_<float>(3, 3) << 0.5f, 0, 0, 0, 0.5f, 0, 0, 0, 1);
    cv::Mat halfWarp = s2i * warp * s2;
    // Few parameters first: they converge on flat covers too.
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
    double correlation = refine(photoGray, coverGray, warp);
    warp.convertTo(h, CV_64F);
    return correlation;
}

/// The cover's outline (4 corners, photo pixels at `small`'s scale, clockwise from top-left) as
/// a homography (CV_32F) from the cover at kAlignCover onto it, in the quarter turn that
/// correlates best (32 px, as `chooseTurn`); `search` is that correlation.
cv::Mat outlineWarp(const cv::Mat &photoGray, const cv::Mat &coverGray, const std::vector<cv::Point2f> &quad, float *search) {
    std::vector<cv::Point2f> square = {{0, 0}, {float(kAlignCover), 0}, {float(kAlignCover), float(kAlignCover)},
                                       {0, float(kAlignCover)}};
    cv::Mat onto = cv::getPerspectiveTransform(square, quad);
    constexpr int n = 32;
    cv::Mat seen = zeroMeanUnit(resizedTo(warpedTo(photoGray, onto, coverGray.size()), n, n));
    cv::Mat t = zeroMeanUnit(resizedTo(coverGray, n, n)), turned;
    int best = 0;
    double bestScore = -2;
    for (int k = 0; k < 4; k++) {
        if (k == 0) turned = t;
        else cv::rotate(t, turned, k == 1 ? cv::ROTATE_90_CLOCKWISE : k == 2 ? cv::ROTATE_180 : cv::ROTATE_90_COUNTERCLOCKWISE);
        double score = seen.dot(turned);
        if (score > bestScore) {
            bestScore = score;
            best = k;
        }
    }
    *search = float(bestScore);
    cv::Mat warp;
    cv::Mat(onto * turnMatrix(best, kAlignCover)).convertTo(warp, CV_32F);
    return warp;
}

/// The outline's homography (see `outlineWarp`) refined by ECC as a full homography.
double alignFromOutline(const cv::Mat &photoGray, const cv::Mat &coverGray, const std::vector<cv::Point2f> &quad,
                        cv::Mat &h, float *search) {
    cv::Mat warp = outlineWarp(photoGray, coverGray, quad, search);
    double correlation = refine(photoGray, coverGray, warp);
    warp.convertTo(h, CV_64F);
    return correlation;
}

/// log luma minus its blur at `sigma` px, stretched to 8 bits: the print's detail without the
/// smooth multiplicative shading of a hand's shadow or a light gradient, which bends ECC on luma
/// (a shadowed pink field correlates with a lit mint one better than with itself).
cv::Mat shadingFree(const cv::Mat &grey, double sigma) {
    cv::Mat f, low;
    grey.convertTo(f, CV_32F);
    cv::log(f + 8.0, f);
    cv::GaussianBlur(f, low, cv::Size(0, 0), std::max(1.0, sigma));
    cv::Mat out = f - low;
    cv::normalize(out, out, 0, 255, cv::NORM_MINMAX);
    out.convertTo(out, CV_8U);
    return out;
}

/// What an acceptance after the shading-free second alignment must also meet: stricter than the
/// first chance on every count (0.75, 0.2, 4). With 4 content cells a retitled cover passed when
/// the shading was taken out at 9 px instead of 6. The agreement turned no negative away at any
/// value from 0.75 up; 0.95 turned away a flat cover under a dim hand's shadow that agreed on 0.93.
/// Occlusion: one-cell strips along the edges are an alignment's own misfit (6 % on a cover at an
/// angle under a lamp and on an outline judged as found); no negative passed up to 20 %.
constexpr double kSecondChanceAgreement = 0.9;
constexpr double kSecondChanceOccluded = 0.08;
constexpr int kSecondChanceContent = 3;

/// The feature alignment comes last, after every other start failed, from anywhere in the photo:
/// its acceptance must agree on more than the first chance's 0.75. A reissue logo near a corner,
/// counted as something lying over the edge, reached 0.81–0.83 there; photos of crate covers 0.87 and up.
constexpr double kFeaturesAgreement = 0.85;

/// A second chance's acceptance: the check accepted and meets the stricter limits above.
bool passesSecondChance(const crate_cover_check &c) {
    return c.accepted && c.agreement >= kSecondChanceAgreement && c.occluded <= kSecondChanceOccluded &&
           c.content <= kSecondChanceContent;
}

/// The grey the alignment works on: luma, unless the cover's colours hide its print from luma
/// (orange letters on a violet ground are one grey), when it is the cover's own strongest colour
/// axis. Both the photo and the cover are seen through the same map.
struct AlignGrey {
    bool luma = true;
    cv::Matx13f weights;
    float offset = 0;

    static AlignGrey of(const cv::Mat &coverRGB) {
        AlignGrey g;
        cv::Mat samples = coverRGB.reshape(1, coverRGB.rows * coverRGB.cols), covar, mean;
        samples.convertTo(samples, CV_64F);
        cv::calcCovarMatrix(samples, covar, mean, cv::COVAR_NORMAL | cv::COVAR_ROWS | cv::COVAR_SCALE, CV_64F);
        cv::Mat values, vectors;
        cv::eigen(covar, values, vectors);
        const double lumaWeights[3] = {0.299, 0.587, 0.114};
        double axisStd = std::sqrt(std::max(0.0, values.at<double>(0))), lumaVar = 0, dot = 0;
        for (int a = 0; a < 3; a++) {
            dot += vectors.at<double>(0, a) * lumaWeights[a];
            for (int b = 0; b < 3; b++) lumaVar += lumaWeights[a] * covar.at<double>(a, b) * lumaWeights[b];
        }
        if (axisStd < 8 || std::sqrt(std::max(0.0, lumaVar)) >= kColourAxisRatio * axisStd) return g;
        g.luma = false;
        // Scaled so the cover's spread along its axis is ±48 grey levels round 128; lighter stays
        // lighter where it can.
        double k = (dot < 0 ? -48.0 : 48.0) / axisStd;
        g.offset = 128;
        for (int c = 0; c < 3; c++) {
            g.weights(c) = float(vectors.at<double>(0, c) * k);
            g.offset -= float(g.weights(c) * mean.at<double>(c));
        }
        return g;
    }

    cv::Mat operator()(const cv::Mat &rgb) const {
        cv::Mat grey;
        if (luma) {
            cv::cvtColor(rgb, grey, cv::COLOR_RGB2GRAY);
            return grey;
        }
        cv::Mat f;
        cv::transform(rgb, f, cv::Matx<float, 1, 4>(weights(0), weights(1), weights(2), offset));
        f.convertTo(grey, CV_8U);
        return grey;
    }
};

/// Shading is taken out at this many pixels of the cover at kAlignCover (1/21 of its side).
constexpr double kShadingSigma = 6;

/// True when the corners are an axis-aligned square (a crop-search square, not an outline).
bool isSquare(const double *c) {
    double side = c[2] - c[0];
    return side > 0 && c[1] == c[3] && c[4] == c[2] && c[5] == c[7] && c[6] == c[0] && std::fabs((c[5] - c[1]) - side) < 1e-6 * side;
}

/// The crop square `corners` (see isSquare) at the photo's matching scale.
Square squareAt(const double *corners, double scale) {
    Square sq;
    sq.x = corners[0] * scale;
    sq.y = corners[1] * scale;
    sq.side = (corners[2] - corners[0]) * scale;
    return sq;
}

/// Rectifies the photo through `h` (cover at kAlignCover → `small`), compares it with the cover and
/// decides. False (status 4) when the outline is implausible.
void judge(const cv::Mat &small, const cv::Mat &coverRect, const cv::Mat &h, double correlation,
           crate_cover_check_limits limits, crate_cover_check *out) {
    out->correlation = float(correlation);
    // plausible() works in kCoverSide units.
    cv::Mat toAlign = (cv::Mat_<double>(3, 3) << double(kAlignCover) / kCoverSide, 0, 0, 0, double(kAlignCover) / kCoverSide, 0, 0, 0, 1);
    if (!plausible(h * toAlign, small.size())) {
        out->status = 4;
        return;
    }
    // Each pixel of the comparison square, through the cover's frame, into the photo.
    cv::Mat toCover = (cv::Mat_<double>(3, 3) << double(kAlignCover) / kRectSide, 0, 0, 0, double(kAlignCover) / kRectSide, 0, 0, 0, 1);
    cv::Mat m = h * toCover;
    // Outside the photo the frame's edge is repeated, not black: those pixels are never judged (the
    // mask), but the comparison's blurs reach into the cells beside them, where black read as print
    // (a cover cut by the frame showed five flat cells along the cut "textured").
    cv::Mat photoRect, mask;
    cv::warpPerspective(small, photoRect, m, cv::Size(kRectSide, kRectSide), cv::INTER_LINEAR | cv::WARP_INVERSE_MAP,
                        cv::BORDER_REPLICATE);
    cv::Mat ones(small.size(), CV_8UC1, cv::Scalar(255));
    cv::warpPerspective(ones, mask, m, cv::Size(kRectSide, kRectSide), cv::INTER_NEAREST | cv::WARP_INVERSE_MAP,
                        cv::BORDER_CONSTANT, cv::Scalar(0));
    out->status = 0;
    if (limits.method == 1) {
        cratecheck::compareCover(photoRect, mask, coverRect, out);
        out->accepted = out->correlation >= limits.min_correlation && out->visible >= limits.min_visible &&
                        out->agreement >= limits.min_agreement && out->occluded <= limits.max_occluded &&
                        out->content <= limits.max_content;
    } else {
        cratecheck::compareCellsV1(photoRect, mask, coverRect, out);
        out->accepted = out->correlation >= limits.min_correlation && out->visible >= limits.min_visible &&
                        (out->agreement >= limits.min_agreement ||
                         (out->correlation >= limits.close_correlation && out->agreement >= limits.min_agreement_when_close));
    }
}

/// With CRATE_COVER_CHECK_MAP set, each alignment's verdict goes to stderr (the replay's map).
void trace(const char *stage, bool luma, const crate_cover_check *c) {
    static const bool on = std::getenv("CRATE_COVER_CHECK_MAP") != nullptr;
    if (!on) return;
    std::fprintf(stderr, "  %s (%s): status %d ecc %.2f agreement %.2f occluded %.2f content %d\n", stage, luma ? "luma" : "colour axis",
                 c->status, c->correlation, c->agreement, c->occluded, c->content);
}

void run(const uint8_t *photo, int pw, int ph, const uint8_t *cover, int cw, int chh, const double *corners,
         crate_cover_check_limits limits, crate_cover_check *out) {
    double scale = double(kPhotoSide) / std::max(pw, ph);
    cv::Mat photoRGB = wrap(photo, pw, ph);
    cv::Mat small = scale < 1 ? resizedTo(photoRGB, int(std::lround(pw * scale)), int(std::lround(ph * scale))) : photoRGB.clone();
    cv::Mat coverSmall = resizedTo(wrap(cover, cw, chh), kAlignCover, kAlignCover);
    const AlignGrey grey = AlignGrey::of(coverSmall);
    cv::Mat photoGray = grey(small), coverGray = grey(coverSmall);
    cv::Mat coverRect = resizedTo(wrap(cover, cw, chh), kRectSide, kRectSide);

    // The outline's corners at the photo's matching scale.
    auto outline = [&] {
        std::vector<cv::Point2f> quad;
        for (int i = 0; i < 4; i++) quad.emplace_back(float(corners[2 * i] * scale), float(corners[2 * i + 1] * scale));
        return quad;
    };
    // The homography from the start (a square or an outline) on these two greys; throws
    // cv::Exception when nothing converges. `size`: the cover's side in the photo, in pixels.
    auto align = [&](const cv::Mat &photoG, const cv::Mat &coverG, cv::Mat &h, float *search, double *size) {
        if (isSquare(corners)) {
            Square start = squareAt(corners, scale);
            *size = start.side;
            Square sq = chooseTurn(photoG, start, coverG);
            *search = float(sq.score);
            return alignFromSquare(photoG, coverG, sq, h);
        }
        std::vector<cv::Point2f> quad = outline();
        *size = std::sqrt(std::fabs(cv::contourArea(quad)));
        return alignFromOutline(photoG, coverG, quad, h, search);
    };
    cv::Mat h;
    double size = 0;
    try {
        double correlation = align(photoGray, coverGray, h, &out->search, &size);
        judge(small, coverRect, h, correlation, limits, out);
    } catch (const cv::Exception &) {
        out->status = 3;
    }
    trace("first", grey.luma, out);
    if (out->accepted || limits.method != 1) return;
    // A second chance: `attempt` judges the photo again into a copy of the verdict, which replaces
    // the verdict only when it passes the second chance's stricter limits.
    auto secondChance = [&](const char *stage, auto attempt) {
        crate_cover_check again = *out;
        try {
            attempt(again);
        } catch (const cv::Exception &) {
            again.accepted = 0;
        }
        trace(stage, grey.luma, &again);
        if (!passesSecondChance(again)) return false;
        again.search = out->search;
        *out = again;
        return true;
    };
    // Aligned but turned down, or bent out of any cover's shape: a shadow or a gradient may have
    // bent the alignment (a hand's shadow over a pale cover pulled luma ECC to an outline no
    // cover has, at 0.90 correlation). Align again from the same start on the print's detail without
    // its shading; a second chance, so it counts only when nearly everything agrees and little is
    // explained away (a reissue logo moved to the cover's edge by a bent alignment otherwise passed
    // as something lying on it).
    if ((out->status == 0 || out->status == 4) && size > 0 && secondChance("shading-free", [&](crate_cover_check &again) {
            cv::Mat h2, warp;
            float search;
            double ignored;
            align(shadingFree(photoGray, kShadingSigma * size / kAlignCover), shadingFree(coverGray, kShadingSigma), h2,
                  &search, &ignored);
            h2.convertTo(warp, CV_32F);
            double correlation = cv::computeECC(coverGray, warpedTo(photoGray, warp, coverGray.size()));
            judge(small, coverRect, h2, correlation, limits, &again);
        })) {
        return;
    }
    // The outline as found, not aligned at all: ECC can leave a good outline for a better
    // correlation in the wrong place (a worn cover's pale ring and a hand's shadow pulled it a
    // tenth of the cover's side off, at 0.85). A second chance.
    if (!isSquare(corners) && secondChance("outline as found", [&](crate_cover_check &asFound) {
            float search;
            cv::Mat warp = outlineWarp(photoGray, coverGray, outline(), &search), h4;
            warp.convertTo(h4, CV_64F);
            judge(small, coverRect, h4, cv::computeECC(coverGray, warpedTo(photoGray, warp, coverGray.size())), limits, &asFound);
        })) {
        return;
    }
    // Nothing converged from the hash's square: it can hold far more than the cover (a plain cover
    // on a plain table gives the hash little to tell the frame from the cover). Look for the cover
    // inside it, smaller, and align from there; a second chance, held to the same limits. (Also
    // tried after alignments that converged and were turned down: it then found the top one of two
    // overlapping covers, a hard negative.)
    if (out->status == 3 && isSquare(corners) && secondChance("placed", [&](crate_cover_check &placed) {
            Square sq = searchStart(photoGray, squareAt(corners, scale), coverGray);
            cv::Mat h3;
            double correlation = alignFromSquare(photoGray, coverGray, sq, h3);
            judge(small, coverRect, h3, correlation, limits, &placed);
        })) {
        return;
    }
    // The hash's square can be off (a cover turned far or cut by the frame): align by features
    // instead, and keep that verdict only if it accepts.
    cv::Mat coverFeatures, hf;
    coverFeatures = grey(resizedTo(wrap(cover, cw, chh), kCoverSide, kCoverSide));
    if (!cratecheck::featureHomography(photoGray, coverFeatures, hf)) return;
    cv::Mat toFeatures = (cv::Mat_<double>(3, 3) << double(kCoverSide) / kAlignCover, 0, 0, 0, double(kCoverSide) / kAlignCover, 0, 0, 0, 1);
    cv::Mat warp;
    cv::Mat(hf * toFeatures).convertTo(warp, CV_32F);
    crate_cover_check second = *out;
    try {
        double correlation = refine(photoGray, coverGray, warp);
        warp.convertTo(h, CV_64F);
        judge(small, coverRect, h, correlation, limits, &second);
    } catch (const cv::Exception &) {
        return;
    }
    second.search = out->search;
    second.accepted = second.accepted && second.agreement >= kFeaturesAgreement;
    trace("features", grey.luma, &second);
    if (second.accepted || out->status != 0) *out = second;
}

}  // namespace

static crate_cover_check_limits crate_cover_check_defaults(void) {
    crate_cover_check_limits limits;
    // Method 0, calibrated with crate-bench calibrate (docs/performance.md): true photos agree on
    // 0.77–1.0 of their cells, and the ones under 0.95 all correlate at 0.91 or more; the hard
    // negatives that align reach 0.93 agreement and 0.85 correlation. Method 1's thresholds are in
    // CoverVerifier.lightAware (decision 0039).
    limits.method = 0;
    limits.min_correlation = 0.3f;
    limits.min_agreement = 0.95f;
    limits.close_correlation = 0.9f;
    limits.min_agreement_when_close = 0.75f;
    limits.min_visible = 0.7f;
    limits.max_occluded = 0.2f;
    limits.max_content = 4;
    return limits;
}

/// The corners are usable: finite, near the photo, clockwise and at least 16 px across.
static bool usableCorners(const double *c, int32_t width, int32_t height) {
    double area = 0;
    for (int i = 0; i < 4; i++) {
        double x = c[2 * i], y = c[2 * i + 1];
        if (!(x > -double(width)) || !(x < 2.0 * width) || !(y > -double(height)) || !(y < 2.0 * height)) return false;
        area += x * c[(2 * i + 3) % 8] - c[(2 * i + 2) % 8] * y;
    }
    return area / 2 >= 16.0 * 16.0;
}

static void crate_cover_check_run(const uint8_t *photo, int32_t photo_width, int32_t photo_height,
                                      const uint8_t *cover, int32_t cover_width, int32_t cover_height,
                                      const double *corners, crate_cover_check_limits limits, crate_cover_check *out) {
    if (!out) return;
    *out = crate_cover_check{};
    if (!photo || !cover || !corners || photo_width < 32 || photo_height < 32 || cover_width < 32 || cover_height < 32 ||
        !usableCorners(corners, photo_width, photo_height)) {
        out->status = 1;
        return;
    }
    try {
        run(photo, photo_width, photo_height, cover, cover_width, cover_height, corners, limits, out);
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
