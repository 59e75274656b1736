/** The prebuilt Swagger UI module of `swagger-ui-dist` (it ships no types): what this app calls. */
declare module 'swagger-ui-dist/swagger-ui-es-bundle.js' {
  interface SwaggerUiOptions {
    domNode: HTMLElement;
    url: string;
    validatorUrl?: string | null;
    persistAuthorization?: boolean;
    deepLinking?: boolean;
    displayRequestDuration?: boolean;
    docExpansion?: 'list' | 'full' | 'none';
  }
  const SwaggerUI: (options: SwaggerUiOptions) => unknown;
  export default SwaggerUI;
}
