// Tier-0 verification: the light on the cover, modelled so it can be told from content.
// (docs/decisions/0039-verification-that-tells-light-from-content.md)
#pragma once

#include "cover_compare.hpp"

#include <vector>

namespace cratecheck {

constexpr int kCells = kGrid * kGrid;

struct Cell {
    bool inside = false;
    double p[3] = {0, 0, 0}, c[3] = {0, 0, 0};  // Mean RGB, 0…1.
    double pLum = 0, cLum = 0;                   // Mean luma, 0…1.
    double pStd = 0, cStd = 0;                   // Print detail: band-passed grey's deviation (0…255).
    double x = 0, y = 0;                         // Centre, −1…1.
};

/// The colour the photo shows for a cover colour: brightness by `field` (per cell, log), then
/// one colour transform for the whole cover, `rgb' = m · rgb + offset`.
struct ColourModel {
    double m[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    double offset[3] = {0, 0, 0};
    /// How far the transform turns hues about the grey axis (degrees): no lamp does much of that,
    /// a recoloured series cover does.
    double hueTurn = 0;

    void predict(const double rgb[3], double out[3]) const {
        for (int k = 0; k < 3; k++) out[k] = m[k][0] * rgb[0] + m[k][1] * rgb[1] + m[k][2] * rgb[2] + offset[k];
    }
};

/// log(photo luma / cover luma) per cell, a quadratic in position fitted robustly.
std::vector<double> brightnessField(const Cell *cells);

/// The cover's colour transform, fitted over the cells with brightness taken out, robustly (a
/// patch of new print does not bend it) and held near "no change" where the cover has too few
/// colours to say more.
ColourModel fitColour(const Cell *cells, const std::vector<double> &field);

/// Per-region white balance: for each cell, the per-channel gain its neighbours (5 × 5 cells, not
/// itself) show over what `model` predicts, median and bounded. Light that changes across the
/// cover (a coloured spot, a warm side) is shared by neighbours; a patch of new print is not.
std::vector<double> regionalGains(const Cell *cells, const ColourModel &model, const std::vector<double> &field);

double median(std::vector<double> v, double fallback);

/// Ring wear told from print: differing cells (`state` 3) that are lighter than the light
/// (`lumaResiduals`, log) and lie round one circle about the cover's centre become 2 (wear).
int forgiveRingWear(const Cell *cells, const double *lumaResiduals, int *state);

}  // namespace cratecheck
