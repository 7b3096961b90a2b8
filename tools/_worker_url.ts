// Where a worker thread (_thread.ts) starts from, for this package loaded
// from disk or from a registry.

/**
 * The URL to start a worker module from: node:worker_threads (the threads'
 * fallback) takes only file: and data: URLs, so a remote module (the package
 * loaded from JSR over https:) is wrapped in a data: module that imports it.
 */
export function workerUrl(url: URL): URL {
  if (url.protocol === "file:") return url;
  const source = `import ${JSON.stringify(url.href)};`;
  return new URL(`data:text/javascript,${encodeURIComponent(source)}`);
}
