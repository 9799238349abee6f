#ifndef CRATE_COVER_CHECK_H
#define CRATE_COVER_CHECK_H
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What the check measured. Filled whatever the verdict, so tools can print it.
typedef struct {
    /// Zero-mean correlation of the starting square (32 px) with the cover in its best turn.
    float search;
    /// Correlation coefficient after the homography is refined (ECC), −1…1.
    float correlation;
    /// Share of the cover's grid cells seen: inside the photo and not washed out by a highlight
    /// (method 1: or under a highlight or shadow with the cover's print still matched there) (0–1).
    float visible;
    /// Share of the seen cells whose texture agrees (zero-mean correlation) after rectifying.
    float structure;
    /// Share of the seen cells whose mean colour agrees.
    float colour;
    /// Share of the seen cells that agree in both.
    float agreement;
    /// Share of the cover's cells under something lying over its edge (a sticker, a thumb).
    float occluded;
    /// Cells in patches of disagreement that are another print (inside the artwork, or crossing it).
    int32_t content;
    /// 1 when the photo shows this cover, 0 otherwise.
    int32_t accepted;
    /// 0 checked; 1 bad arguments; 2 nothing like the cover in the photo; 3 the alignment did not
    /// converge; 4 implausible outline; 5 OpenCV threw (never crosses into Swift).
    int32_t status;
} crate_cover_check;

/// Thresholds; `crate_cover_check_defaults` gives the calibrated ones.
typedef struct {
    /// 0: cells in texture and a*b* colour (decision 0015, the default); 1: light told from
    /// content (decision 0039: brightness field, colour transform, per-region white balance,
    /// patches judged by where they lie, feature alignment as a second try).
    int32_t method;
    /// Below this correlation after alignment the cover is not the photo's, whatever the cells say.
    float min_correlation;
    /// Share of the seen cells that must agree (in method 1, once light is accounted for)…
    float min_agreement;
    /// …or, method 0 only, when the correlation after alignment reaches `close_correlation`, this
    /// smaller share (a highlight or a neighbour's corner spoils some cells).
    float close_correlation;
    float min_agreement_when_close;
    /// Share of the cover's cells that must be seen.
    float min_visible;
    /// Method 1: largest share of the cover that something over its edge may hide.
    float max_occluded;
    /// Method 1: most cells of different print (patches of three or more inside the artwork) still
    /// accepted: one small patch is left to alignment error at a sharp colour edge.
    int32_t max_content;
} crate_cover_check_limits;

/// The functions themselves are reached through `crate_cover_check_table` (crate_plugins.h):
/// `defaults` gives the calibrated thresholds; `run` checks that `photo` (upright RGB) shows the
/// cover artwork `cover` (upright RGB), starting from where the perceptual hash saw it: `corners`,
/// 8 doubles (x, y of four corners clockwise from the top-left, photo pixels), an axis-aligned
/// crop square or the cover's outline found in the photo; the quarter turn that fits best, a
/// homography refined from it by
/// maximising the correlation (ECC, so perspective and a slight tilt are undone), then the photo
/// rectified into the cover's square and compared cell by cell (texture by zero-mean correlation,
/// colour by chromaticity after the light's brightness field and colour cast are taken out), then
/// judged by where it disagrees: over the cover's edge is something lying on it, inside is another
/// print. The same artwork with another title, another layout or other colours, and a cover mostly
/// hidden, do not pass. Rows are `width * 3` bytes.

#ifdef __cplusplus
}
#endif
#endif
