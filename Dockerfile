# The release image: the static (musl) poolguard binary and nothing else.
# Built by .github/workflows/release.yml from the binary it has just built:
#   docker run --rm -v "$PWD:/src" -w /src ghcr.io/poolguard/poolguard check .
FROM scratch
COPY poolguard /usr/local/bin/poolguard
ENTRYPOINT ["/usr/local/bin/poolguard"]
CMD ["--help"]
