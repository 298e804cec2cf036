# Tributary's production image: Node 24 running the compiled service (dist/src/main.js, built by
# `npm run build` in the build stage, started by scripts/start.sh) as an unprivileged user, with production dependencies only. The
# same image runs every role (ROLE=api|worker|all), `node dist/scripts/migrate.js` and the operator
# CLI, `node dist/scripts/cli.js`.
#
#   podman build --format docker -t tributary .        (docker build -t tributary .)
#
# --format docker keeps the HEALTHCHECK (the OCI image format has no such field). BASE_IMAGE is any
# Debian bookworm image; without a registry, make one with deploy/debian-base.sh.
ARG BASE_IMAGE=docker.io/library/debian:bookworm-slim
ARG NPM_REGISTRY=https://registry.npmjs.org

FROM ${BASE_IMAGE} AS toolchain
# Node 24 comes from the npm registry's node-linux-<arch> package: the binary `npm install` puts under
# node_modules/node for development. Tarballs are checked against the registry's sha512 for these versions.
ARG NODE_VERSION=24.21.0
ARG NODE_SHA512_X64=de750bb336795f47dc898a46d2de93add029273027f3e16520d3fa3a2317ed5f07aefa404cf37ddfa5352e545e389ae22d16b87bcc84a900580a72f23cd02ced
ARG NODE_SHA512_ARM64=1692513c4cf63afbd32df8c83a5346158f492cf30a825e66f9de2819804b836e242759a6bcdd5997f1cf2601781c3689e752127afd65d5c459fc333e91e5d6e6
ARG NPM_VERSION=11.19.1
ARG NPM_SHA512=cedb312b1b7f92421a02cfb68b4194e88f8346651dacd6acc5364a25ef5309d4a32b19616a1ff8aff865e7280c0fa5c0835a99f5cd93368991e2a80ec9da75d2
ARG NPM_REGISTRY
# PEM of one more CA to trust while building, for a TLS-intercepting proxy between the builder and the
# registry. Only this stage trusts it; the runtime image does not.
ARG BUILD_CA_CERT=""
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates curl \
 && rm -rf /var/lib/apt/lists/* \
 && if [ -n "$BUILD_CA_CERT" ]; then \
      printf '%s\n' "$BUILD_CA_CERT" > /usr/local/share/ca-certificates/build-ca.crt && update-ca-certificates; \
    fi
RUN set -eu; \
    case "$(dpkg --print-architecture)" in \
      amd64) arch=x64; sha512="$NODE_SHA512_X64" ;; \
      arm64) arch=arm64; sha512="$NODE_SHA512_ARM64" ;; \
      *) echo "no pinned Node build for $(dpkg --print-architecture)" >&2; exit 1 ;; \
    esac; \
    curl -fsSL -o /tmp/node.tgz "$NPM_REGISTRY/node-linux-$arch/-/node-linux-$arch-$NODE_VERSION.tgz"; \
    echo "$sha512  /tmp/node.tgz" | sha512sum -c -; \
    mkdir -p /opt/node/bin; \
    tar -xzf /tmp/node.tgz -C /opt/node --strip-components=1 package/bin/node package/LICENSE; \
    curl -fsSL -o /tmp/npm.tgz "$NPM_REGISTRY/npm/-/npm-$NPM_VERSION.tgz"; \
    echo "$NPM_SHA512  /tmp/npm.tgz" | sha512sum -c -; \
    mkdir -p /opt/npm; \
    tar -xzf /tmp/npm.tgz -C /opt/npm --strip-components=1; \
    rm /tmp/node.tgz /tmp/npm.tgz; \
    /opt/node/bin/node --version
# The production dependencies, for the runtime image.
FROM toolchain AS dependencies
ARG NPM_REGISTRY
WORKDIR /build
COPY package.json package-lock.json ./
# No dev dependencies (the `node` package among them), no optional ones (embedded-postgres's binaries:
# production uses DATABASE_URL), no install scripts (no production dependency needs one).
RUN /opt/node/bin/node /opt/npm/bin/npm-cli.js ci --omit=dev --omit=optional --ignore-scripts \
      --no-audit --no-fund --registry="$NPM_REGISTRY" \
 && rm -rf /root/.npm

# The compiled service: TypeScript (a dev dependency) type-checks and emits dist/, rolldown bundles the
# operator console into dist/console; only dist/ leaves. Optional dependencies stay: rolldown's native
# binding is one (for this platform only).
FROM toolchain AS build
ARG NPM_REGISTRY
WORKDIR /build
COPY package.json package-lock.json ./
RUN /opt/node/bin/node /opt/npm/bin/npm-cli.js ci --ignore-scripts \
      --no-audit --no-fund --registry="$NPM_REGISTRY" \
 && rm -rf /root/.npm
COPY tsconfig.json tsconfig.build.json ./
COPY contracts ./contracts
COPY generated ./generated
COPY src ./src
COPY scripts/build.ts scripts/console-build.ts scripts/cli.ts scripts/migrate.ts ./scripts/
COPY scripts/cli ./scripts/cli
COPY deploy/healthcheck.ts ./deploy/healthcheck.ts
RUN /opt/node/bin/node scripts/build.ts

FROM ${BASE_IMAGE} AS runtime
RUN groupadd --system --gid 10001 tributary \
 && useradd --system --uid 10001 --gid tributary --home-dir /var/lib/tributary --no-create-home --shell /usr/sbin/nologin tributary \
 && install -d -o tributary -g tributary -m 0700 /var/lib/tributary
COPY --from=toolchain /opt/node/bin/node /usr/local/bin/node
COPY --from=toolchain /opt/node/LICENSE /usr/local/share/doc/node/LICENSE
WORKDIR /app
# Root owns the code: the service user can read it, not change it. It writes only under DATA_DIR.
COPY --from=dependencies /build/node_modules ./node_modules
# package.json says "type": "module": dist/'s .js files are ES modules.
COPY package.json package-lock.json ./
COPY --from=build /build/dist ./dist
COPY scripts/start.sh ./scripts/start.sh
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8443 \
    DATA_DIR=/var/lib/tributary
USER tributary:tributary
EXPOSE 8443
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 CMD ["node", "dist/deploy/healthcheck.js"]
# The launcher execs node (PID 1 then) with the V8 heap settings the service is sized for.
CMD ["sh", "scripts/start.sh"]
