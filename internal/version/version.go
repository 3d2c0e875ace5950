// Package version is the project's version, the one source of truth for what
// produced a result record or a figure.
//
// Version is a constant, bumped by hand at each release. Revision names the
// source revision and is set at link time:
//
//	go build -ldflags "-X github.com/twintorus/twintorus/internal/version.Revision=$(git rev-parse --short HEAD)" ./cmd/twintorus
//
// Without it, String falls back to the VCS revision Go embeds in binaries built
// inside a git checkout, and to Version alone when there is none (as with
// GOFLAGS=-buildvcs=false, or in tests).
package version

import "runtime/debug"

// Version is the release this source tree is, or will be with -dev.
const Version = "0.1.0-dev"

// Revision is the source revision, set with -ldflags -X (see the package doc);
// empty when not set. It is a variable only so that the linker can set it.
var Revision = ""

// String is Version, plus "+REVISION" when the revision is known, and
// "+REVISION-dirty" for a build from modified sources that Go recorded as such.
func String() string {
	if Revision != "" {
		return Version + "+" + Revision
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return Version
	}
	var rev string
	var dirty bool
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return Version
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "-dirty"
	}
	return Version + "+" + rev
}
