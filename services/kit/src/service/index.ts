// The kit's service layer: runService/startService, which compose the lower layers into one
// service process (config, MongoDB, Kafka in the background, the app, the lifecycle).
export {
  runService,
  startService,
  appOptions,
  type BuiltWith,
  type ServiceDefinition,
  type ServiceContext,
  type BuiltService,
  type StartOptions,
  type RunningService,
} from './service.js';
