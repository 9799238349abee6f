// Tier-0 verification: ORB + RANSAC alignment, used when the alignment grown from the hash's
// square fails (a cover turned far, cut by the frame, or found by the hash in the wrong square).
// (docs/decisions/0039-verification-that-tells-light-from-content.md)
#include "cover_features.hpp"

#include <opencv2/calib3d.hpp>
#include <opencv2/features2d.hpp>
#include <opencv2/imgproc.hpp>

#include <vector>

namespace cratecheck {

bool featureHomography(const cv::Mat &photoGray, const cv::Mat &coverGray, cv::Mat &homography) {
    // Features are found on contrast-stretched copies, so a dim or hazy photo still yields some.
    cv::Mat p, c;
    cv::equalizeHist(photoGray, p);
    cv::equalizeHist(coverGray, c);
    // The photo gets more features than the cover: a striped table or a shop's clutter around the
    // cover takes many of them (a cover on stripes, its corner under a sticker, kept 13 inliers
    // from 800 features and 23 from 1200).
    cv::Ptr<cv::ORB> coverOrb = cv::ORB::create(800, 1.2f, 6, 15, 0, 2, cv::ORB::HARRIS_SCORE, 25);
    cv::Ptr<cv::ORB> photoOrb = cv::ORB::create(1200, 1.2f, 6, 15, 0, 2, cv::ORB::HARRIS_SCORE, 25);
    std::vector<cv::KeyPoint> kp, kc;
    cv::Mat dp, dc;
    photoOrb->detectAndCompute(p, cv::noArray(), kp, dp);
    coverOrb->detectAndCompute(c, cv::noArray(), kc, dc);
    if (kp.size() < 12 || kc.size() < 12) return false;
    // Cross-checked nearest neighbours: a feature and its match must choose each other.
    cv::BFMatcher matcher(cv::NORM_HAMMING, true);
    std::vector<cv::DMatch> matches;
    matcher.match(dc, dp, matches);
    if (matches.size() < 12) return false;
    std::vector<cv::Point2f> from, to;
    for (const cv::DMatch &m : matches) {
        if (m.distance > 64) continue;
        from.push_back(kc[m.queryIdx].pt);
        to.push_back(kp[m.trainIdx].pt);
    }
    if (from.size() < 12) return false;
    std::vector<unsigned char> inliers;
    cv::Mat h = cv::findHomography(from, to, cv::RANSAC, 4.0, inliers, 2000, 0.995);
    if (h.empty()) return false;
    int count = 0;
    for (unsigned char in : inliers) count += in;
    if (count < 15) return false;
    homography = h;
    return true;
}

}  // namespace cratecheck
