/**
 * The API reference's viewer (Swagger UI, about 1.7 MB) and its style sheet, loaded only when the
 * reference opens: a chunk of its own, so the rest of the app never downloads it.
 */
export async function loadViewer() {
  const [viewer] = await Promise.all([
    import('swagger-ui-dist/swagger-ui-es-bundle.js'),
    import('swagger-ui-dist/swagger-ui.css'),
    import('./api-reference.css'),
  ]);
  return viewer.default;
}

export type Viewer = Awaited<ReturnType<typeof loadViewer>>;
