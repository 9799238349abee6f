// Tier-0 verification: the light on the cover — a smooth brightness field (gradient, vignette,
// a shadow's soft edge) and one colour transform (a lamp's cast, the camera's colour rendering).
// (docs/decisions/0039-verification-that-tells-light-from-content.md)
#include "light_model.hpp"

#include <opencv2/core.hpp>

#include <algorithm>
#include <cmath>

namespace cratecheck {

/// log(photo luma / cover luma) as a quadratic in the cell's position, fitted robustly: the light
/// falling on the cover. Cells it does not explain (glare, new print) are dropped from the fit.
std::vector<double> brightnessField(const Cell *cells) {
    double coef[6] = {0, 0, 0, 0, 0, 0};
    std::vector<bool> use(kCells);
    for (int i = 0; i < kCells; i++) use[i] = cells[i].inside && cells[i].cLum > 0.05 && cells[i].pLum > 0.01;
    for (int round = 0; round < 3; round++) {
        std::vector<double> rows, rhs;
        for (int i = 0; i < kCells; i++) {
            if (!use[i]) continue;
            const Cell &s = cells[i];
            double f[6] = {1, s.x, s.y, s.x * s.x, s.x * s.y, s.y * s.y};
            rows.insert(rows.end(), f, f + 6);
            rhs.push_back(std::log(s.pLum / s.cLum));
        }
        int n = int(rhs.size());
        if (n < 12) break;
        cv::Mat a(n, 6, CV_64F, rows.data()), b(n, 1, CV_64F, rhs.data()), x;
        if (!cv::solve(a, b, x, cv::DECOMP_SVD)) break;
        for (int k = 0; k < 6; k++) coef[k] = x.at<double>(k);
        // Drop what the field does not explain, more strictly each round.
        std::vector<double> res;
        for (int i = 0; i < kCells; i++) {
            if (!use[i]) continue;
            const Cell &s = cells[i];
            double fit = coef[0] + coef[1] * s.x + coef[2] * s.y + coef[3] * s.x * s.x + coef[4] * s.x * s.y + coef[5] * s.y * s.y;
            res.push_back(std::fabs(std::log(cells[i].pLum / cells[i].cLum) - fit));
        }
        std::vector<double> sorted = res;
        std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
        double cut = std::max(0.12, 3.0 * sorted[sorted.size() / 2]);
        for (int i = 0, j = 0; i < kCells; i++) {
            if (use[i]) use[i] = res[j++] <= cut;
        }
    }
    std::vector<double> field(kCells);
    for (int i = 0; i < kCells; i++) {
        const Cell &s = cells[i];
        field[i] = coef[0] + coef[1] * s.x + coef[2] * s.y + coef[3] * s.x * s.x + coef[4] * s.x * s.y + coef[5] * s.y * s.y;
    }
    return field;
}

double median(std::vector<double> v, double fallback) {
    if (v.empty()) return fallback;
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2];
}

ColourModel fitColour(const Cell *cells, const std::vector<double> &field) {
    ColourModel model;
    std::vector<int> use;
    for (int i = 0; i < kCells; i++) {
        if (cells[i].inside && cells[i].pLum > 0.02) use.push_back(i);
    }
    if (use.size() < 12) return model;
    // Ridge towards "no change": a cover of one or two colours cannot pin down nine numbers, and
    // the colours it lacks are never asked for.
    const double ridge = std::sqrt(0.02 * double(use.size()));
    for (int round = 0; round < 3; round++) {
        int n = int(use.size());
        cv::Mat a(n + 3, 4, CV_64F, cv::Scalar(0)), x;
        for (int r = 0; r < n; r++) {
            const Cell &s = cells[use[r]];
            for (int j = 0; j < 3; j++) a.at<double>(r, j) = s.c[j];
            a.at<double>(r, 3) = 1;
        }
        for (int j = 0; j < 3; j++) a.at<double>(n + j, j) = ridge;
        for (int k = 0; k < 3; k++) {
            cv::Mat b(n + 3, 1, CV_64F, cv::Scalar(0));
            for (int r = 0; r < n; r++) b.at<double>(r) = cells[use[r]].p[k] / std::exp(field[use[r]]);
            b.at<double>(n + k) = ridge;
            if (!cv::solve(a, b, x, cv::DECOMP_SVD)) return model;
            for (int j = 0; j < 3; j++) model.m[k][j] = x.at<double>(j);
            model.offset[k] = x.at<double>(3);
        }
        if (round == 2) break;
        // Drop the cells the transform does not explain (new print, glare), then fit again.
        std::vector<double> res(n);
        for (int r = 0; r < n; r++) {
            const Cell &s = cells[use[r]];
            double pred[3], e = 0;
            model.predict(s.c, pred);
            for (int k = 0; k < 3; k++) e += std::pow(s.p[k] / std::exp(field[use[r]]) - pred[k], 2);
            res[r] = std::sqrt(e);
        }
        double cut = std::max(0.08, 3 * median(res, 0));
        std::vector<int> kept;
        for (int r = 0; r < n; r++) {
            if (res[r] <= cut) kept.push_back(use[r]);
        }
        if (kept.size() < 12) break;
        use = kept;
    }
    // The turn about the grey axis: the antisymmetric part of m, against its overall size.
    double ax = model.m[2][1] - model.m[1][2], ay = model.m[0][2] - model.m[2][0], az = model.m[1][0] - model.m[0][1];
    double anti = std::sqrt(ax * ax + ay * ay + az * az) / 2;
    double scale = (model.m[0][0] + model.m[1][1] + model.m[2][2]) / 3;
    double sym = anti / std::max(std::fabs(scale), 1e-3);
    model.hueTurn = std::atan(sym / std::sqrt(3.0)) * 180 / M_PI;
    return model;
}

std::vector<double> regionalGains(const Cell *cells, const ColourModel &model, const std::vector<double> &field) {
    std::vector<double> ratio(kCells * 3, -1), gains(kCells * 3, 1.0);
    for (int i = 0; i < kCells; i++) {
        if (!cells[i].inside) continue;
        double pred[3];
        model.predict(cells[i].c, pred);
        for (int k = 0; k < 3; k++) {
            if (pred[k] > 0.04) ratio[i * 3 + k] = cells[i].p[k] / std::exp(field[i]) / pred[k];
        }
    }
    for (int i = 0; i < kCells; i++) {
        int x = i % kGrid, y = i / kGrid;
        for (int k = 0; k < 3; k++) {
            std::vector<double> around;
            for (int dy = -2; dy <= 2; dy++) {
                for (int dx = -2; dx <= 2; dx++) {
                    int nx = x + dx, ny = y + dy;
                    if ((dx == 0 && dy == 0) || nx < 0 || ny < 0 || nx >= kGrid || ny >= kGrid) continue;
                    double r = ratio[(ny * kGrid + nx) * 3 + k];
                    if (r > 0) around.push_back(r);
                }
            }
            // Bounded: a region may be lit differently, not printed in another colour.
            if (around.size() >= 6) gains[i * 3 + k] = std::clamp(median(around, 1.0), 0.75, 1.33);
        }
    }
    return gains;
}

}  // namespace cratecheck
