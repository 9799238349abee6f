// TagLib's C++ API behind a small C interface. The C binding (tag_c.h, TagLib 1.13) exposes only
// title/artist/album/track/year, not the property map that carries ALBUMARTIST, DISCNUMBER and the
// MusicBrainz ids, so Crate wraps FileRef + PropertyMap here.
#include "crate_tags.h"

#include <cstdlib>
#include <cstring>
#include <taglib/fileref.h>
#include <taglib/tag.h>
#include <taglib/tpropertymap.h>
#include <taglib/tdebuglistener.h>
#include <taglib/flacfile.h>
#include <taglib/flacpicture.h>
#include <taglib/mpegfile.h>
#include <taglib/id3v2tag.h>
#include <taglib/attachedpictureframe.h>
#include <taglib/mp4file.h>
#include <taglib/mp4tag.h>
#include <taglib/mp4coverart.h>
#include <taglib/vorbisfile.h>
#include <taglib/opusfile.h>
#include <taglib/xiphcomment.h>

namespace {

/// TagLib prints warnings about damaged files to stderr; the index records those files itself.
class QuietListener : public TagLib::DebugListener {
public:
    void printMessage(const TagLib::String &) override {}
};

QuietListener quiet;

void silence() {
    static bool done = false;
    if (!done) {
        TagLib::setDebugListener(&quiet);
        done = true;
    }
}

char *dup(const TagLib::String &s) {
    if (s.isEmpty()) return nullptr;
    std::string utf8 = s.to8Bit(true);
    char *out = static_cast<char *>(std::malloc(utf8.size() + 1));
    if (!out) return nullptr;
    std::memcpy(out, utf8.c_str(), utf8.size() + 1);
    return out;
}

char *first(const TagLib::PropertyMap &map, const char *key) {
    auto it = map.find(key);
    if (it == map.end() || it->second.isEmpty()) return nullptr;
    return dup(it->second.front());
}

} // namespace

extern "C" int crate_tags_read(const char *path, crate_tag_info *out) {
    std::memset(out, 0, sizeof(*out));
    silence();
    try {
        TagLib::FileRef ref(path, true, TagLib::AudioProperties::Fast);
        if (ref.isNull() || !ref.file() || !ref.file()->isValid()) return CRATE_TAGS_UNREADABLE;
        TagLib::PropertyMap map = ref.file()->properties();
        out->title = first(map, "TITLE");
        out->artist = first(map, "ARTIST");
        out->album_artist = first(map, "ALBUMARTIST");
        out->album = first(map, "ALBUM");
        out->disc_number = first(map, "DISCNUMBER");
        out->track_number = first(map, "TRACKNUMBER");
        out->mb_album_id = first(map, "MUSICBRAINZ_ALBUMID");
        out->mb_release_group_id = first(map, "MUSICBRAINZ_RELEASEGROUPID");
        out->mb_track_id = first(map, "MUSICBRAINZ_TRACKID");
        out->r128_track_gain = first(map, "R128_TRACK_GAIN");
        out->r128_album_gain = first(map, "R128_ALBUM_GAIN");
        TagLib::AudioProperties *props = ref.audioProperties();
        if (!props) return CRATE_TAGS_NO_AUDIO;
        out->length_ms = props->lengthInMilliseconds();
        out->sample_rate = props->sampleRate();
        out->channels = props->channels();
        if (out->sample_rate <= 0) return CRATE_TAGS_NO_AUDIO;
        return CRATE_TAGS_OK;
    } catch (...) {
        crate_tags_free(out);
        return CRATE_TAGS_UNREADABLE;
    }
}

extern "C" void crate_tags_free(crate_tag_info *info) {
    if (!info) return;
    char **fields[] = {&info->title, &info->artist, &info->album_artist, &info->album, &info->disc_number,
                       &info->track_number, &info->mb_album_id, &info->mb_release_group_id, &info->mb_track_id,
                       &info->r128_track_gain, &info->r128_album_gain};
    for (char **field : fields) {
        std::free(*field);
        *field = nullptr;
    }
    std::memset(info, 0, sizeof(*info));
}

extern "C" int crate_tags_write(const char *path, const char *const *keys, const char *const *values, int count) {
    silence();
    try {
        TagLib::FileRef ref(path, false);
        if (ref.isNull() || !ref.file() || !ref.file()->isValid()) return 1;
        TagLib::PropertyMap map = ref.file()->properties();
        for (int i = 0; i < count; i++) {
            TagLib::String key(keys[i], TagLib::String::UTF8);
            TagLib::String value(values[i], TagLib::String::UTF8);
            if (value.isEmpty()) {
                map.erase(key);
            } else {
                map.replace(key, TagLib::StringList(value));
            }
        }
        ref.file()->setProperties(map);
        return ref.file()->save() ? 0 : 1;
    } catch (...) {
        return 1;
    }
}

namespace {

/// The front cover of a FLAC-style picture list, else its first picture.
TagLib::ByteVector pick(const TagLib::List<TagLib::FLAC::Picture *> &pictures) {
    for (auto *picture : pictures) {
        if (picture && picture->type() == TagLib::FLAC::Picture::FrontCover) return picture->data();
    }
    for (auto *picture : pictures) {
        if (picture) return picture->data();
    }
    return TagLib::ByteVector();
}

TagLib::ByteVector embeddedPicture(TagLib::File *file) {
    if (auto *flac = dynamic_cast<TagLib::FLAC::File *>(file)) {
        TagLib::ByteVector data = pick(flac->pictureList());
        if (!data.isEmpty()) return data;
        if (flac->hasXiphComment()) return pick(flac->xiphComment()->pictureList());
        return TagLib::ByteVector();
    }
    if (auto *vorbis = dynamic_cast<TagLib::Ogg::Vorbis::File *>(file)) {
        return vorbis->tag() ? pick(vorbis->tag()->pictureList()) : TagLib::ByteVector();
    }
    if (auto *opus = dynamic_cast<TagLib::Ogg::Opus::File *>(file)) {
        return opus->tag() ? pick(opus->tag()->pictureList()) : TagLib::ByteVector();
    }
    if (auto *mpeg = dynamic_cast<TagLib::MPEG::File *>(file)) {
        TagLib::ID3v2::Tag *tag = mpeg->ID3v2Tag(false);
        if (!tag) return TagLib::ByteVector();
        const TagLib::ID3v2::FrameList &frames = tag->frameListMap()["APIC"];
        TagLib::ByteVector fallback;
        for (auto *frame : frames) {
            auto *apic = dynamic_cast<TagLib::ID3v2::AttachedPictureFrame *>(frame);
            if (!apic) continue;
            if (apic->type() == TagLib::ID3v2::AttachedPictureFrame::FrontCover) return apic->picture();
            if (fallback.isEmpty()) fallback = apic->picture();
        }
        return fallback;
    }
    if (auto *mp4 = dynamic_cast<TagLib::MP4::File *>(file)) {
        TagLib::MP4::Tag *tag = mp4->tag();
        if (!tag || !tag->contains("covr")) return TagLib::ByteVector();
        TagLib::MP4::CoverArtList covers = tag->item("covr").toCoverArtList();
        return covers.isEmpty() ? TagLib::ByteVector() : covers.front().data();
    }
    return TagLib::ByteVector();
}

} // namespace

extern "C" int crate_tags_read_picture(const char *path, unsigned char **data, unsigned long *size) {
    *data = nullptr;
    *size = 0;
    silence();
    try {
        TagLib::FileRef ref(path, false);
        if (ref.isNull() || !ref.file() || !ref.file()->isValid()) return 1;
        TagLib::ByteVector picture = embeddedPicture(ref.file());
        if (picture.isEmpty()) return 1;
        unsigned char *out = static_cast<unsigned char *>(std::malloc(picture.size()));
        if (!out) return 1;
        std::memcpy(out, picture.data(), picture.size());
        *data = out;
        *size = picture.size();
        return 0;
    } catch (...) {
        return 1;
    }
}

extern "C" int crate_tags_write_picture(const char *path, const unsigned char *data, unsigned long size, const char *mime) {
    silence();
    try {
        TagLib::FLAC::File file(path, false);
        if (!file.isValid()) return 1;
        file.removePictures();
        auto *picture = new TagLib::FLAC::Picture();
        picture->setType(TagLib::FLAC::Picture::FrontCover);
        picture->setMimeType(mime ? mime : "image/jpeg");
        picture->setData(TagLib::ByteVector(reinterpret_cast<const char *>(data), static_cast<unsigned int>(size)));
        file.addPicture(picture);
        return file.save() ? 0 : 1;
    } catch (...) {
        return 1;
    }
}
