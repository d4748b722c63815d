import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const API_SERVER = process.env.PORTAL_API_URL ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
  },
  server: {
    proxy: {
      '/api': { target: API_SERVER, changeOrigin: false },
      '/dev/': { target: API_SERVER, changeOrigin: false },
    },
  },
});
