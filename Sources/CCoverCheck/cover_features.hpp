// Tier-0 verification: a second way to align, by features, where the hash's square is off.
#pragma once

#include <opencv2/core.hpp>

namespace cratecheck {

/// The homography taking cover pixels (`coverGray`'s frame) to `photoGray`'s, from ORB features
/// matched both ways and RANSAC; false when too few agree (flat covers have few features).
bool featureHomography(const cv::Mat &photoGray, const cv::Mat &coverGray, cv::Mat &homography);

}  // namespace cratecheck
