import Joi from 'joi';
import { documented, named, pagingKeys, tolerant, type JsonObject } from '../../kit/src/http/index.js';
import type { InboxQuery } from './domain/inbox.js';
import type { PreferencePatch } from './domain/preferences.js';
import type { ParentAlertInput, WeakTopic } from './domain/weak-topic.js';
import type { BatchInput, CreateInput, EventInput, SnapshotInput } from './domain/writes.js';
import { MAX_ALERT_PARENTS, MAX_BATCH_RECIPIENTS, MAX_EVENT_NOTIFICATIONS } from './messages.js';

// The same id shape the kit accepts in actor headers.
export const ID = /^[A-Za-z0-9_.:@-]{1,128}$/;
// Type names become keys of the preference map: no dots, no `$`.
export const TYPE = /^[A-Za-z0-9_:-]{1,64}$/;

const id = () => Joi.string().pattern(ID);
const nullableId = () => id().allow(null);
const text = (max: number) => Joi.string().max(max);

export const idParams = Joi.object<{ notificationId: string }, true>({ notificationId: id().required() });

/** A list's paging, as `pagingKeys` returns it: clamped, never refused. */
export type Paging = { page: number; limit: number };

const filter = Joi.string()
  .valid('ALL', 'UNREAD', 'READ', 'SUPPORT')
  .default('ALL')
  .description('Default ALL. SUPPORT: types starting with SUPPORT.');
const q = Joi.string().max(200).allow('').description('Literal text, case-insensitive, in title or body.');

export const listQuery = Joi.object<InboxQuery & Paging, true>({
  userId: id().description('ADMIN: one user; others: only their own id (another is 403).'),
  organizationId: id().description('Rows of this organization only (rows with a null organization are then left out).'),
  filter,
  q,
  ...pagingKeys(),
});

/** The parent's list: the inbox's filters but the user and organization (always the caller's own). */
export const parentListQuery = Joi.object<Omit<InboxQuery, 'userId' | 'organizationId'> & Paging, true>({
  filter,
  q,
  ...pagingKeys(),
});

const data = () => Joi.object<Record<string, unknown>>().unknown(true).max(50);

const content = {
  type: Joi.string().pattern(TYPE).required().description('Type name; SUPPORT* types are what filter=SUPPORT lists.'),
  title: text(200).min(1).required(),
  body: text(4000).allow(''),
  data: data().description('Free JSON, returned as sent.'),
  organizationId: nullableId().description('Defaults to X-Organization-Id, else null.'),
};

const createFields = Joi.object<CreateInput, true>({ userId: id().required(), ...content });

export const createBody = named('CreateNotification', createFields);

/** The row's own id may come in the body (as rows are read), spelled id or notificationId. */
export const SNAPSHOT_SPELLINGS = [{ path: 'id', alias: 'notificationId' }] as const;

// A tolerant reader (a backfill's body): members the schema does not name are dropped, never stored.
export const snapshotBody = named(
  'SnapshotBody',
  tolerant(
    Joi.object<SnapshotInput, true>({
      id: id().description(
        "The row's id as rows are read; when sent it must equal the path's notificationId (400 naming id).",
      ),
      userId: id().required(),
      ...content,
      isRead: Joi.boolean(),
      readAt: Joi.date().iso().allow(null),
      createdAt: Joi.date().iso(),
      updatedAt: Joi.date().iso(),
    }),
    SNAPSHOT_SPELLINGS,
  ).description(
    'A tolerant reader (internal body): members not named here are ignored at every depth, never refused and never stored; named members keep their types and limits. createdBy, sourceKey and any other member of a stored row are not read.',
  ),
);

export const batchBody = named(
  'BatchBody',
  Joi.object<BatchInput, true>({
    batchKey: id().description(
      'Idempotency key of the fan-out: a replay creates only missing rows; the same key with another body is 409.',
    ),
    recipientIds: Joi.array()
      .items(id().required())
      .min(1)
      .max(MAX_BATCH_RECIPIENTS)
      .required()
      .description('At most 10,000 (more is 400); duplicates count once.'),
    ...content,
  }),
);

export const preferencesBody = named(
  'PreferencesPatch',
  Joi.object<PreferencePatch, true>({
    enabledTypes: Joi.object<Record<string, boolean>>().pattern(TYPE, Joi.boolean().required()).max(100),
    mutedUntil: Joi.date().iso().allow(null),
  }).min(1),
);

const weakTopic = Joi.object<WeakTopic & { shouldAlert?: boolean }, true>({
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

/** A flat exam needs both examId and examTitle (each fills one member of the exam it stands for). */
const FLAT_EXAM: JsonObject = {
  anyOf: [
    { required: ['exam'] },
    { required: ['examId', 'examTitle'] },
    { not: { anyOf: [{ required: ['examId'] }, { required: ['examTitle'] }] } },
  ],
};

const WEAK_TOPIC_DESCRIPTION =
  'A tolerant reader (internal body): members not named here are ignored at every depth, never refused and never stored; named members keep their types and limits. The public ids flat or nested (studentId | student.id, attemptId | attempt.id, classroomId | classroom.id) and the exam nested or flat (exam.id | examId, exam.title | examTitle); both spellings must agree. exam.id and exam.title may come as examId and examTitle, so neither is required inside exam; together the two spellings must name both (400 otherwise).';

// A tolerant reader: members the schema does not name are dropped at every depth, never stored.
export const weakTopicBody = named(
  'WeakTopicBody',
  documented(
    tolerant(
      Joi.object<ParentAlertInput, true>({
        studentId: id().required(),
        parentIds: Joi.array().items(id().required()).min(1).max(MAX_ALERT_PARENTS).required(),
        alertKey: id().description('Idempotency key; default attempt:<attemptId>, else none.'),
        organizationId: nullableId(),
        attemptId: nullableId(),
        classroomId: nullableId(),
        exam: Joi.object<{ id: string; title: string }, true>({
          id: id().required(),
          title: text(300).min(1).required(),
        }).allow(null),
        topics: Joi.array().items(weakTopic).min(1).max(50).required(),
      }),
      WEAK_TOPIC_SPELLINGS,
    ).description(WEAK_TOPIC_DESCRIPTION),
    { allOf: [FLAT_EXAM] },
  ),
);

const eventNotification = named(
  'EventNotification',
  createFields.description(
    'A notification of the event (the shape of POST /v1/notifications); unknown members ignored here, never stored.',
  ),
);

// A tolerant reader like the snapshot; `data` is the free-form part and is kept whole.
export const eventBody = named(
  'EventBody',
  tolerant(
    Joi.object<EventInput, true>({
      event: Joi.object<EventInput['event'], true>({
        id: id().description('Caller-given id: a replay returns the recorded event (200, created=false).'),
        type: Joi.string().pattern(TYPE).required(),
        actorId: nullableId(),
        targetUserId: nullableId(),
        entity: Joi.string().pattern(TYPE).required(),
        entityId: id().required(),
        organizationId: nullableId(),
        data: data(),
      }).required(),
      notifications: Joi.array().items(eventNotification).max(MAX_EVENT_NOTIFICATIONS),
    }),
  ).description(
    'A tolerant reader (internal body): members not named here are ignored at every depth, never refused and never stored; named members keep their types and limits. event.data is free JSON and kept whole. The contract names one spelling for each member (actor id, target user id, entity, entity id), so no other is read.',
  ),
);
