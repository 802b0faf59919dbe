# nerq serve as a container (docs/serve.md, "Container"). Build: docker build -t nerq .
# Run:   docker run --rm -p 127.0.0.1:8787:8787 -v nerq-store:/home/node/.cache nerq
# With tokens: mount a token file read-only and add `--token-file /run/secrets/nerq-tokens`.

FROM node:24-slim AS build
WORKDIR /build
COPY package.json package-lock.json .npmrc ./
# Dependencies without their install scripts, then the bundle (everything nerq runs is in dist/).
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsup.config.ts ./
COPY src ./src
RUN npx tsup

FROM node:24-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /build/package.json ./
COPY --from=build /build/dist ./dist
COPY bin ./bin
COPY LICENSE README.md ./
# The store (HTTP cache, history) lives in ~/.cache/nerq of the unprivileged `node` user; the
# directory exists and is theirs, so a named volume mounted on it is theirs too.
RUN mkdir -p /home/node/.cache && chown -R node:node /home/node
USER node
EXPOSE 8787
# Inside the container the server must listen on every interface; publish the port on the
# host's loopback (-p 127.0.0.1:8787:8787) or put it behind a proxy, with a token file.
ENTRYPOINT ["node", "bin/nerq.js"]
CMD ["serve", "--host", "0.0.0.0", "--port", "8787"]
