import Foundation

/// Response bodies in MusicBrainz WS/2's real shapes (API-NOTES.md), with its gotchas: `score` as a
/// string and as an integer, dates "", "1977" and "1977-06-29", missing optional fields.
public enum MusicBrainzFixtures {
    public static let rumoursReleaseID = "7ec069c0-4424-3169-8ed0-d5e2473e0e84"
    public static let rumoursReleaseGroupID = "416bb5e5-c7d1-3977-8fd7-7c9daf6c2be6"
    public static let reissueReleaseID = "0f6b4c0a-2a1c-4d3e-9d6e-3f1a2b3c4d5e"
    public static let compilationReleaseID = "1a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d"
    public static let bootlegReleaseID = "2b3c4d5e-6f7a-4b2c-9d3e-4f5a6b7c8d9e"
    public static let sparseReleaseID = "3c4d5e6f-7a8b-4c3d-8e4f-5a6b7c8d9e0f"

    /// A search for "Rumours" by Fleetwood Mac, deliberately out of order.
    public static let rumoursSearch = """
    {"created":"2026-05-26T01:37:12.691Z","count":6,"offset":0,"releases":[
     {"id":"\(compilationReleaseID)","score":100,"title":"Rumours","status":"Official",
      "artist-credit":[{"name":"Fleetwood Mac","artist":{"id":"bd13909f-1c29-4c27-a874-d4aaf27c5b1a","name":"Fleetwood Mac"}}],
      "release-group":{"id":"5b6c7d8e-9f0a-4b1c-8d2e-3f4a5b6c7d8e","primary-type":"Album","secondary-types":["Compilation"],"title":"Rumours"},
      "date":"1988","country":"DE"},
     {"id":"\(reissueReleaseID)","score":"100","title":"Rumours","status":"Official",
      "artist-credit":[{"name":"Fleetwood Mac","artist":{"id":"bd13909f-1c29-4c27-a874-d4aaf27c5b1a","name":"Fleetwood Mac"}}],
      "release-group":{"id":"\(rumoursReleaseGroupID)","primary-type":"Album","title":"Rumours"},
      "date":"2004-03-22","country":"US",
      "label-info":[{"catalog-number":"R2 73892","label":{"id":"c595c289-47ce-4fba-b999-b87503e8cb71","name":"Warner Bros. Records"}}]},
     {"id":"\(bootlegReleaseID)","score":98,"title":"Rumours","status":"Bootleg",
      "artist-credit":[{"name":"Fleetwood Mac"}],
      "release-group":{"id":"6c7d8e9f-0a1b-4c2d-9e3f-4a5b6c7d8e9f","primary-type":"Album","title":"Rumours"},
      "date":"","country":"XE"},
     {"id":"\(rumoursReleaseID)","score":"100","title":"Rumours","status":"Official",
      "artist-credit":[{"name":"Fleetwood Mac","artist":{"id":"bd13909f-1c29-4c27-a874-d4aaf27c5b1a","name":"Fleetwood Mac","sort-name":"Fleetwood Mac"}}],
      "release-group":{"id":"\(rumoursReleaseGroupID)","primary-type":"Album","title":"Rumours"},
      "date":"1977-02-04","country":"GB",
      "label-info":[{"catalog-number":"K 56344","label":{"id":"c595c289-47ce-4fba-b999-b87503e8cb71","name":"Warner Bros. Records"}}],
      "track-count":11,"media":[{"format":"12\\" Vinyl","disc-count":0,"track-count":11}]},
     {"id":"\(sparseReleaseID)","title":"Rumours","score":{"weird":true},"unexpected":[1,2,3]},
     {"id":"../etc/passwd","score":100,"title":"Rumours"},
     {"title":"no id at all"}
    ]}
    """

    /// A lookup with `inc=recordings+artist-credits+labels+release-groups+genres+tags`, two media.
    public static let rumoursLookup = """
    {"id":"\(rumoursReleaseID)","title":"Rumours","status":"Official","date":"1977-02-04","country":"GB",
     "artist-credit":[{"name":"Fleetwood Mac","joinphrase":"","artist":{"id":"bd13909f-1c29-4c27-a874-d4aaf27c5b1a","name":"Fleetwood Mac"}}],
     "release-group":{"id":"\(rumoursReleaseGroupID)","primary-type":"Album","first-release-date":"1977-02-04","title":"Rumours"},
     "label-info":[{"catalog-number":"K 56344","label":{"id":"c595c289-47ce-4fba-b999-b87503e8cb71","name":"Warner Bros. Records"}}],
     "genres":[{"id":"a","name":"soft rock","count":12},{"id":"b","name":"pop rock","count":20}],
     "tags":[{"name":"70s","count":3}],
     "media":[
      {"position":1,"format":"12\\" Vinyl","track-count":2,"tracks":[
        {"id":"t1","number":"A1","position":1,"title":"Second Hand News","length":163000,
         "recording":{"id":"0f2f1a43-7a4c-4d1c-8a7b-1b2c3d4e5f60","title":"Second Hand News","length":163000}},
        {"id":"t2","number":"A2","position":2,"title":"Dreams","length":null,
         "recording":{"id":"1f2f1a43-7a4c-4d1c-8a7b-1b2c3d4e5f61","title":"Dreams","length":257000}}]},
      {"position":2,"format":"12\\" Vinyl","track-count":1,"tracks":[
        {"id":"t3","number":"B1","position":1,"title":"Go Your Own Way","length":"223000",
         "recording":{"id":"2f2f1a43-7a4c-4d1c-8a7b-1b2c3d4e5f62","title":"Go Your Own Way"}}]}]}
    """

    public static let notFound = #"{"help":"For usage, please see: https://musicbrainz.org/development/mmd","error":"Not Found"}"#
    public static let rateLimited = #"{"error":"Your requests are exceeding the allowable rate limit. Please see http://wiki.musicbrainz.org/XMLWebService for more information."}"#
}
