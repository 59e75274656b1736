import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The router plugin must come before the React plugin so that route files are
// split and transformed before JSX is compiled.
export default defineConfig({
  plugins: [
    tanstackRouter({
      target: 'react',
      routesDirectory: 'src/routes',
      generatedRouteTree: 'src/route-tree.gen.ts',
      autoCodeSplitting: true,
    }),
    react(),
  ],
  build: { outDir: 'dist', sourcemap: true },
  server: {
    // In development the services run on the server process (npm start); the
    // app asks them through the same paths it uses in production.
    proxy: {
      '/config': 'http://localhost:8080',
      '/monitoring': 'http://localhost:8080',
      '/app-config.json': 'http://localhost:8080',
    },
  },
});
