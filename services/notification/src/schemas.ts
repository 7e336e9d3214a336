import Joi from 'joi';
import { pagingKeys, tolerant } from '../../kit/src/index.js';
import { MAX_ALERT_PARENTS, MAX_BATCH_RECIPIENTS, MAX_EVENT_NOTIFICATIONS } from './messages.js';

// The same id shape the kit accepts in actor headers.
export const ID = /^[A-Za-z0-9_.:@-]{1,128}$/;
// Type names become keys of the preference map: no dots, no `$`.
export const TYPE = /^[A-Za-z0-9_:-]{1,64}$/;

const id = () => Joi.string().pattern(ID);
const nullableId = () => id().allow(null);
const text = (max: number) => Joi.string().max(max);

export const idParams = Joi.object({ notificationId: id().required() });

export const listQuery = Joi.object({
  userId: id(),
  organizationId: id(),
  filter: Joi.string().valid('ALL', 'UNREAD', 'READ', 'SUPPORT').default('ALL'),
  q: Joi.string().max(200).allow(''),
  ...pagingKeys(),
});

export const parentListQuery = Joi.object({
  filter: Joi.string().valid('ALL', 'UNREAD', 'READ', 'SUPPORT').default('ALL'),
  q: Joi.string().max(200).allow(''),
  ...pagingKeys(),
});

const data = () => Joi.object().unknown(true).max(50);

const content = {
  type: Joi.string().pattern(TYPE).required(),
  title: text(200).min(1).required(),
  body: text(4000).allow(''),
  data: data(),
  organizationId: nullableId(),
};

export const createBody = Joi.object({ userId: id().required(), ...content });

/** The row's own id may come in the body (as rows are read), spelled id or notificationId. */
export const SNAPSHOT_SPELLINGS = [{ path: 'id', alias: 'notificationId' }] as const;

// A tolerant reader (a backfill's body): members the schema does not name are dropped, never stored.
export const snapshotBody = tolerant(
  Joi.object({
    id: id(),
    userId: id().required(),
    ...content,
    isRead: Joi.boolean(),
    readAt: Joi.date().iso().allow(null),
    createdAt: Joi.date().iso(),
    updatedAt: Joi.date().iso(),
  }),
  SNAPSHOT_SPELLINGS,
);

export const batchBody = Joi.object({
  batchKey: id(),
  recipientIds: Joi.array().items(id().required()).min(1).max(MAX_BATCH_RECIPIENTS).required(),
  ...content,
});

export const preferencesBody = Joi.object({
  enabledTypes: Joi.object().pattern(TYPE, Joi.boolean().required()).max(100),
  mutedUntil: Joi.date().iso().allow(null),
}).min(1);

const weakTopic = Joi.object({
  topic: text(200).min(1).required(),
  topicId: nullableId(),
  wrongCount: Joi.number().integer().min(0).max(1_000_000).required(),
  attemptCount: Joi.number().integer().min(1).max(1_000_000).required(),
  accuracy: Joi.number().min(0).max(1).required(),
  shouldAlert: Joi.boolean(),
});

/**
 * The public ids flat or nested (analytics' result rows nest them: student.id, classroom.id), and
 * the exam flat as the alert's own data spells it (examId, examTitle); both spellings must agree.
 */
export const WEAK_TOPIC_SPELLINGS = [
  { path: 'studentId', alias: 'student.id' },
  { path: 'classroomId', alias: 'classroom.id' },
  { path: 'attemptId', alias: 'attempt.id' },
  { path: 'exam.id', alias: 'examId' },
  { path: 'exam.title', alias: 'examTitle' },
] as const;

// A tolerant reader: members the schema does not name are dropped at every depth, never stored.
export const weakTopicBody = tolerant(
  Joi.object({
    studentId: id().required(),
    parentIds: Joi.array().items(id().required()).min(1).max(MAX_ALERT_PARENTS).required(),
    alertKey: id(),
    organizationId: nullableId(),
    attemptId: nullableId(),
    classroomId: nullableId(),
    exam: Joi.object({ id: id().required(), title: text(300).min(1).required() }).allow(null),
    topics: Joi.array().items(weakTopic).min(1).max(50).required(),
  }),
  WEAK_TOPIC_SPELLINGS,
);

// A tolerant reader like the snapshot; `data` is the free-form part and is kept whole.
export const eventBody = tolerant(
  Joi.object({
    event: Joi.object({
      id: id(),
      type: Joi.string().pattern(TYPE).required(),
      actorId: nullableId(),
      targetUserId: nullableId(),
      entity: Joi.string().pattern(TYPE).required(),
      entityId: id().required(),
      organizationId: nullableId(),
      data: data(),
    }).required(),
    notifications: Joi.array().items(createBody).max(MAX_EVENT_NOTIFICATIONS),
  }),
);
