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
    /// Share of the cover's grid cells seen: inside the photo and not washed out by a highlight (0–1).
    float visible;
    /// Share of the seen cells whose texture agrees (zero-mean correlation) after rectifying.
    float structure;
    /// Share of the seen cells whose mean colour agrees.
    float colour;
    /// Share of the seen cells that agree in both.
    float agreement;
    /// 1 when the photo shows this cover, 0 otherwise.
    int32_t accepted;
    /// 0 checked; 1 bad arguments; 2 nothing like the cover in the photo; 3 the alignment did not
    /// converge; 4 implausible outline; 5 OpenCV threw (never crosses into Swift).
    int32_t status;
} crate_cover_check;

/// Thresholds; `crate_cover_check_defaults` gives the calibrated ones.
typedef struct {
    /// Below this correlation after alignment the cover is not the photo's, whatever the cells say.
    float min_correlation;
    /// The photo shows the cover when this share of its seen cells agree…
    float min_agreement;
    /// …or when the correlation after alignment reaches `close_correlation` and this smaller share
    /// agree (a highlight or a neighbour's corner spoils some cells of a photo that is otherwise
    /// the cover all over).
    float close_correlation;
    float min_agreement_when_close;
    /// Share of the cover's cells that must be seen.
    float min_visible;
} crate_cover_check_limits;

/// The functions themselves are reached through `crate_cover_check_table` (crate_plugins.h):
/// `defaults` gives the calibrated thresholds; `run` checks that `photo` (upright RGB) shows the
/// cover artwork `cover` (upright RGB), starting from the square (`square_*`, photo pixels) where
/// the perceptual hash saw it: the quarter turn that fits best, a homography refined from it by
/// maximising the correlation (ECC, so perspective and a slight tilt are undone), then the photo
/// rectified into the cover's square and compared cell by cell (texture and colour), so that the
/// same artwork with another title, another layout or other colours, and a cover mostly hidden,
/// do not pass. Rows are `width * 3` bytes.

#ifdef __cplusplus
}
#endif
#endif
