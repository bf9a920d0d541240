# The portal as one image: the API, the bundled identity provider and the built portal, served by one
# Node process as a user of its own. Settings are environment variables (README: Configuration),
# secrets best as *_FILE. Migrations are a step of their own, run with the same image before the
# portal starts (README: Operating it, The image):
#   docker run --rm --env-file portal.env customer-core node apps/api/dist/cli/main.js migrate up
#
# BASE: any Debian-based image with Node.js 20.19+ and npm at /usr/local/bin (deploy/image/ builds
# one from a Debian root where no registry is reachable).
ARG BASE=node:20-bookworm-slim

# 1. Build: every dependency, then the server (tsc) and the portal (Vite). The manifests come first so
# that the dependency layer is reused until one of them changes.
FROM ${BASE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/contracts/package.json packages/contracts/
COPY packages/database/package.json packages/database/
COPY apps/api/package.json apps/api/
COPY apps/idp/package.json apps/idp/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# 2. The server's production dependencies and nothing else: no TypeScript, Vite, test tools, nor the
# portal's browser packages (its built files are all the server needs). No install script runs: none
# of these needs one.
FROM ${BASE} AS server-dependencies
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/packages/contracts/package.json packages/contracts/
COPY --from=build /app/packages/database/package.json packages/database/
COPY --from=build /app/apps/api/package.json apps/api/
COPY --from=build /app/apps/idp/package.json apps/idp/
COPY --from=build /app/apps/web/package.json apps/web/
COPY --from=build /app/e2e/package.json e2e/
COPY --from=build /app/bench/package.json bench/
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund --workspace=@customer-core/api

# 3. What runs: Node, the production dependencies, the built server and portal.
FROM ${BASE}
RUN groupadd --system --gid 10001 portal \
  && useradd --system --uid 10001 --gid portal --home-dir /app --no-create-home --shell /usr/sbin/nologin portal
WORKDIR /app
# Production by default, and migrations as a deploy step (MIGRATE_ON_START=false). The memory settings
# are `npm start`'s (scripts/server-env.mjs; a test holds them equal): glibc gives back each password
# check's 19 MiB, and V8's two flags are in CMD because NODE_OPTIONS refuses --heap-growing-percent.
ENV NODE_ENV=production \
  HOST=0.0.0.0 \
  PORT=8080 \
  METRICS_HOST=0.0.0.0 \
  MIGRATE_ON_START=false \
  MALLOC_MMAP_THRESHOLD_=131072
COPY --from=server-dependencies /app ./
COPY --from=build /app/packages/contracts/dist packages/contracts/dist
COPY --from=build /app/packages/database/dist packages/database/dist
COPY --from=build /app/apps/idp/dist apps/idp/dist
COPY --from=build /app/apps/api/dist apps/api/dist
COPY --from=build /app/apps/web/dist apps/web/dist
# DATA_DIR for the embedded database (PGlite) when DATABASE_URL is not set: a trial, not production.
RUN mkdir data && chown portal:portal data
USER portal
# 8080: the portal. 9464: metrics, where METRICS_PORT=9464 is set (for Prometheus only, never public).
EXPOSE 8080 9464
# Ready: the database reachable and migrated. Node's fetch, as a slim image has no curl.
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/readyz`,{signal:AbortSignal.timeout(4000)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# On SIGTERM the server stops taking requests and finishes those in flight (up to 10 s): give it 15 s
# before SIGKILL (compose: stop_grace_period; docker run: --stop-timeout 15).
STOPSIGNAL SIGTERM
CMD ["node", "--max-semi-space-size=8", "--heap-growing-percent=20", "apps/api/dist/main.js"]
