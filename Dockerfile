# Sourio — production image (issue 18; operator guide: docs/deploy.md).
#
#   docker build -t sourio .
#   docker run -p 3000:3000 -e DATABASE_URL=… -e AUTH_SECRET=… -e DATA_KEY=… -e PUBLIC_URL=… sourio
#
# Debian (glibc), not Alpine: sharp and @napi-rs/canvas ship prebuilt glibc binaries, and the lockfile
# holds their linux-x64-gnu / linux-arm64-gnu packages. No Chromium in any stage: the build needs none
# (Playwright only runs in the tests) and the runtime reads devis with pdf.js and tesseract.js, whose
# French data comes from node_modules (@tesseract.js-data/fra), never downloaded.
ARG NODE_IMAGE=node:24-bookworm-slim

# ---------------------------------------------------------------------------------------------------
# Production dependencies only (tsx stays: `npm run create-admin` and `npm run rotate-key` use it).
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
ENV npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false
COPY package.json package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force

# ---------------------------------------------------------------------------------------------------
# Build: the web client (vite, pre-rendered public pages) into dist/client, and the server compiled
# to plain JavaScript (esbuild) into dist/server and dist/shared.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
ENV npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false \
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
RUN npm run build \
    && test -f dist/client/index.html \
    && test -f dist/server/server.js

# ---------------------------------------------------------------------------------------------------
# Runtime: node, production dependencies, the built client and the compiled server. Everything under
# /app belongs to root and is read-only for the service account; only DATA_DIR (/data) is writable.
FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
# NODE_ENV=production: `npm start` (scripts/start.mjs) runs dist/server/server.js with plain node (no
# tsx); AUTH_SECRET and DATA_KEY are then required. SKIP_CLIENT_BUILD: dist/client is already built.
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    SKIP_CLIENT_BUILD=true \
    npm_config_update_notifier=false

COPY --from=deps /app/node_modules ./node_modules
COPY package.json package-lock.json tsconfig.json ./
COPY scripts ./scripts
# The TypeScript sources of the server are only for the operator commands run through tsx
# (`npm run create-admin`, `npm run rotate-key`); the server itself runs the compiled dist/server.
COPY src/server ./src/server
COPY src/shared ./src/shared
COPY --from=build /app/dist ./dist
# start.mjs recompiles the server when a source is newer than dist/server/server.js: never here (the
# service account could not write dist/ anyway), so the compiled entry is made the newest file.
RUN touch dist/server/server.js \
    && mkdir -p /data \
    && chown node:node /data \
    && chmod 700 /data

USER node
EXPOSE 3000
# Node's own fetch (no curl in the slim image). GET /api/health answers 200 when the database answers
# and a file can be stored (bucket or DATA_DIR). Without Docker: node scripts/lib/image-check.mjs
# rebuilds this stage in a temporary folder and checks it (docs/deploy.md).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# server.ts stops cleanly on SIGTERM (ends the requests in progress, at most 10 s).
STOPSIGNAL SIGTERM
CMD ["node", "scripts/start.mjs"]
