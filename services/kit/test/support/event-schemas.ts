// Services' tests validate what they emit against the event catalogue (kafka/schemas):
//   expectValidEvent(event, TOPICS.attemptGraded)
export { expectValidEvent, validateEvent, type EventValidation } from '../../../../kafka/event-schemas.js';
