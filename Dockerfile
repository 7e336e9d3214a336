# syntax=docker/dockerfile:1
# The platform's one image: every service, the DOCX workers and the operator. The program is
# chosen by the command, which the Helm chart passes as container args:
#   node dist/services/cli.js <service>     (auth, user, ..., document-import, docx-worker)
#   node dist/operator/src/main.js
# There is deliberately no ENTRYPOINT (the base image's docker-entrypoint.sh is cleared), so the
# chart's args are the whole command and node runs as PID 1 and receives SIGTERM itself.
#
#   docker build -t edu-platform:0.1.0 .
#   kind load docker-image edu-platform:0.1.0

ARG NODE_IMAGE=node:20-bookworm-slim

# ---- build: all dependencies, TypeScript -> dist/
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY services ./services
COPY operator ./operator
COPY kafka ./kafka
COPY crds ./crds
# Data files read at run time (topic catalogue, event schemas, OpenAPI documents) go beside the
# compiled code, at the same relative paths as in the sources.
RUN npx tsc -p tsconfig.json \
 && find services operator kafka crds -type f \( -name '*.json' -o -name '*.yaml' \) -exec cp --parents {} dist/ \;

# ---- deps: production dependencies only (bcrypt's install step picks its bundled prebuild)
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# ---- runtime
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
RUN groupadd --system --gid 10001 app \
 && useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin app
# Owned by root and read-only to the app user: the chart also mounts the root filesystem read-only.
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
USER 10001:10001
EXPOSE 4001
ENTRYPOINT []
CMD ["node", "dist/services/cli.js", "auth"]
