export { AccountsService } from './service.js';
export { accountsRoutes } from './routes.js';
