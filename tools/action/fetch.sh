#!/bin/sh
# The download step of the composite action (action.yml), runnable anywhere with sh, curl and sha256sum (or
# shasum): fetches the released binary for this machine and the release's SHA256SUMS, refuses the binary
# unless its SHA-256 is the one listed, installs it, puts its folder on GITHUB_PATH, and then, given
# arguments, runs it with them and exits with its exit code.
#
#   tools/action/fetch.sh [ARGS…]
#
# Environment (the action sets these from its inputs):
#   CONFORMANCE_VERSION      release tag, e.g. v0.1.0, or "latest" (default)
#   CONFORMANCE_REPOSITORY   owner/name of the repository whose releases hold the binary
#   CONFORMANCE_BASE_URL     the folder holding the release files; default
#                            https://github.com/$CONFORMANCE_REPOSITORY/releases/download/$CONFORMANCE_VERSION
#                            (…/releases/latest/download for "latest")
#   CONFORMANCE_INSTALL_DIR  where the binary goes (the action caches this folder); default ./.conformance/bin
#   CONFORMANCE_TARGET       the release target; default from RUNNER_OS/RUNNER_ARCH, else from uname
#   CONFORMANCE_ARGS         arguments to run the binary with when none are given on the command line, split
#                            on whitespace (no quoting, no globbing)
#
# A binary already in CONFORMANCE_INSTALL_DIR (a cache hit) is used when it matches the SHA256SUMS stored
# beside it; anything else is downloaded again. Exit 2 on a usage problem (unknown target, missing
# repository), 1 when a download fails or a checksum does not match.
set -eu

say() { printf 'conformance action: %s\n' "$*" >&2; }
die() {
  code=$1
  shift
  say "$*"
  exit "$code"
}

target_for() {
  os=${RUNNER_OS:-$(uname -s)}
  arch=${RUNNER_ARCH:-$(uname -m)}
  case "$os" in
    Linux | linux) os=linux ;;
    macOS | Darwin | darwin) os=macos ;;
    Windows | MINGW* | MSYS* | CYGWIN*) os=windows ;;
    *) die 2 "no released binary for the operating system \"$os\": build one with \"deno task compile\"" ;;
  esac
  case "$arch" in
    X64 | x86_64 | amd64) arch=x86_64 ;;
    ARM64 | arm64 | aarch64) arch=aarch64 ;;
    *) die 2 "no released binary for the architecture \"$arch\": build one with \"deno task compile\"" ;;
  esac
  case "$os-$arch" in
    linux-x86_64) echo x86_64-unknown-linux-gnu ;;
    linux-aarch64) echo aarch64-unknown-linux-gnu ;;
    macos-x86_64) echo x86_64-apple-darwin ;;
    macos-aarch64) echo aarch64-apple-darwin ;;
    windows-x86_64) echo x86_64-pc-windows-msvc ;;
    *) die 2 "no released binary for $os on $arch: build one with \"deno task compile\"" ;;
  esac
}

sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d ' ' -f 1
  else
    shasum -a 256 "$1" | cut -d ' ' -f 1
  fi
}

# The hash SHA256SUMS lists for a file name ("HASH  NAME" or "HASH *NAME"), or nothing.
listed_sum() {
  awk -v name="$2" '{ file = $2; sub(/^\*/, "", file); if (file == name) { print $1; exit } }' "$1"
}

download() {
  say "downloading $1"
  curl --fail --silent --show-error --location --retry 3 --output "$2" "$1" ||
    die 1 "download of $1 failed: check the version and that the release has this file"
}

verify() { # FILE SUMS NAME: succeeds when FILE's SHA-256 is the one SUMS lists for NAME
  expected=$(listed_sum "$2" "$3")
  [ -n "$expected" ] || return 2
  [ "$(sha256_of "$1")" = "$expected" ]
}

version=${CONFORMANCE_VERSION:-latest}
target=${CONFORMANCE_TARGET:-$(target_for)}
ext=""
case "$target" in *windows*) ext=".exe" ;; esac
artifact="conformance-$target$ext"
install_dir=${CONFORMANCE_INSTALL_DIR:-./.conformance/bin}
binary="$install_dir/conformance$ext"

if [ -n "${CONFORMANCE_BASE_URL:-}" ]; then
  base=${CONFORMANCE_BASE_URL%/}
else
  [ -n "${CONFORMANCE_REPOSITORY:-}" ] ||
    die 2 "no repository to download from: set the action's \"repository\" input (owner/name)"
  if [ "$version" = latest ]; then
    base="https://github.com/$CONFORMANCE_REPOSITORY/releases/latest/download"
  else
    base="https://github.com/$CONFORMANCE_REPOSITORY/releases/download/$version"
  fi
fi

if [ -f "$binary" ] && [ -f "$install_dir/SHA256SUMS" ] && verify "$binary" "$install_dir/SHA256SUMS" "$artifact"; then
  say "using the cached $artifact ($version), checksum verified"
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  download "$base/SHA256SUMS" "$work/SHA256SUMS"
  download "$base/$artifact" "$work/$artifact"
  if verify "$work/$artifact" "$work/SHA256SUMS" "$artifact"; then
    :
  else
    status=$?
    [ "$status" -eq 2 ] && die 1 "SHA256SUMS at $base lists no $artifact: refusing to install it"
    die 1 "checksum mismatch for $artifact: SHA256SUMS lists $(listed_sum "$work/SHA256SUMS" "$artifact"), the download has $(sha256_of "$work/$artifact"); refusing to install it"
  fi
  mkdir -p "$install_dir"
  cp "$work/SHA256SUMS" "$install_dir/SHA256SUMS"
  cp "$work/$artifact" "$binary"
  chmod +x "$binary"
  say "installed $artifact ($version) as $binary, checksum verified"
fi

install_dir=$(cd "$install_dir" && pwd)
binary="$install_dir/conformance$ext"
[ -n "${GITHUB_PATH:-}" ] && echo "$install_dir" >>"$GITHUB_PATH"
[ -n "${GITHUB_OUTPUT:-}" ] && echo "path=$binary" >>"$GITHUB_OUTPUT"

if [ "$#" -eq 0 ] && [ -n "${CONFORMANCE_ARGS:-}" ]; then
  set -f
  # Whitespace splitting on purpose (documented): no quoting, no globbing.
  # shellcheck disable=SC2086
  set -- $CONFORMANCE_ARGS
  set +f
fi
[ "$#" -eq 0 ] && exit 0

# The binary may write only in the working folder and temp, and the runner's step summary file lies
# elsewhere: let it write a file here and append that to the real summary afterwards.
summary=""
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  summary="$PWD/.conformance-step-summary-$$.md"
  : >"$summary"
fi
set +e
if [ -n "$summary" ]; then
  GITHUB_STEP_SUMMARY="$summary" "$binary" "$@"
else
  "$binary" "$@"
fi
code=$?
set -e
if [ -n "$summary" ]; then
  cat "$summary" >>"$GITHUB_STEP_SUMMARY"
  rm -f "$summary"
fi
exit "$code"
