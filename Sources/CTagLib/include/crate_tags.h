#ifndef CRATE_TAGS_H
#define CRATE_TAGS_H

#ifdef __cplusplus
extern "C" {
#endif

/// What TagLib read from one audio file. Strings are UTF-8 (TagLib converts Latin-1/UTF-16
/// frames), malloc'd, NULL when the tag is absent; free the whole struct with crate_tags_free.
typedef struct crate_tag_info {
    char *title;
    char *artist;
    char *album_artist;
    char *album;
    char *disc_number;   /* raw text: "1", "1/2", "999" */
    char *track_number;  /* raw text: "3", "3/12" */
    char *mb_album_id;
    char *mb_release_group_id;
    char *mb_track_id;
    /* Opus loudness tags (also read from FLAC/Vorbis comments and ID3 TXXX): raw text, a Q7.8
       gain relative to -23 LUFS ("-1280" is -5 dB). Parsed and checked by the caller. */
    char *r128_track_gain;
    char *r128_album_gain;
    int length_ms;       /* 0 when unknown */
    int sample_rate;
    int channels;
} crate_tag_info;

/// Status of crate_tags_read.
enum {
    CRATE_TAGS_OK = 0,
    /// TagLib does not know the format, or the file is damaged, truncated or empty.
    CRATE_TAGS_UNREADABLE = 1,
    /// The file opened but has no audio stream TagLib can describe.
    CRATE_TAGS_NO_AUDIO = 2,
};

/// Reads the tags of `path` (raw bytes: Linux file names need not be UTF-8) into `out`.
/// Never throws: TagLib's C++ exceptions (there should be none) are caught here.
int crate_tags_read(const char *path, crate_tag_info *out);

/// Frees the strings of `info` (not the struct itself) and zeroes it.
void crate_tags_free(crate_tag_info *info);

/// Writes property-map tags (`TITLE`, `ALBUMARTIST`, `DISCNUMBER`, `MUSICBRAINZ_ALBUMID`, …) to
/// `path`; an empty value removes the property. Returns 0 on success, 1 when the file cannot be
/// opened or saved. Used by tests and tools to make tagged files.
int crate_tags_write(const char *path, const char *const *keys, const char *const *values, int count);

/// The picture embedded in `path` — FLAC PICTURE block, Ogg/Opus METADATA_BLOCK_PICTURE, ID3v2
/// APIC, MP4 `covr` — the front cover when there are several, else the first. On success
/// `*data` (malloc'd, free with free()) and `*size` are set and 0 is returned; 1 when there is
/// no picture or the file cannot be read. The bytes are not checked here: callers decode them.
int crate_tags_read_picture(const char *path, unsigned char **data, unsigned long *size);

/// Embeds `data` as the front cover of the FLAC file `path` (replacing its pictures). 0 on success,
/// 1 when the file is not FLAC or cannot be saved. Used by tests and tools.
int crate_tags_write_picture(const char *path, const unsigned char *data, unsigned long size, const char *mime);

#ifdef __cplusplus
}
#endif

#endif
