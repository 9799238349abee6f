// Tier-0 verification, second half: the photo already rectified onto the cover's square is
// compared with the cover, telling light from content (docs/decisions/0039).
#pragma once
#include "crate_plugins.h"

#include <opencv2/core.hpp>

namespace cratecheck {

constexpr int kGrid = 12;  // kGrid × kGrid cells over the cover.

/// Compares `photoRect` (RGB, the photo warped onto the cover's square; `mask` marks the pixels
/// that came from inside the photo) with `coverRect` (RGB, same size) and fills `out`'s visible,
/// structure, colour, agreement, content and occluded. Does not decide.
void compareCover(const cv::Mat &photoRect, const cv::Mat &mask, const cv::Mat &coverRect, crate_cover_check *out);

/// The first method (decision 0015): texture and a*b* colour per cell, highlights left out; fills
/// visible, structure, colour and agreement.
void compareCellsV1(const cv::Mat &photoRect, const cv::Mat &mask, const cv::Mat &coverRect, crate_cover_check *out);

}  // namespace cratecheck
