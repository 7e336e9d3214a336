import { Schema, type Connection, type Model, type mongo } from 'mongoose';

export interface StoredObjectRow {
  key: string;
  fileId: mongo.ObjectId;
  size: number;
  contentType: string;
  fileName: string;
  organizationId?: string;
  createdAt: Date;
}

export interface UploadTicketRow {
  token: string;
  key: string;
  contentType: string;
  fileName: string;
  organizationId: string;
  expiresAt: Date;
  usedAt?: Date;
}

export interface MediaAssetRow {
  _id: string;
  key: string;
  organizationId: string;
  ownerId?: string;
  contentType: string;
  fileName: string;
  size: number;
  createdAt: Date;
}

export interface DocumentModels {
  StoredObject: Model<StoredObjectRow>;
  UploadTicket: Model<UploadTicketRow>;
  MediaAsset: Model<MediaAssetRow>;
}

export function documentModels(conn: Connection): DocumentModels {
  const objects = new Schema<StoredObjectRow>(
    {
      key: { type: String, required: true, unique: true },
      fileId: { type: Schema.Types.ObjectId, required: true },
      size: { type: Number, required: true },
      contentType: { type: String, required: true },
      fileName: { type: String, required: true },
      organizationId: String,
      createdAt: { type: Date, required: true },
    },
    { collection: 'stored_objects', versionKey: false },
  );
  const tickets = new Schema<UploadTicketRow>(
    {
      token: { type: String, required: true, unique: true },
      key: { type: String, required: true },
      contentType: { type: String, required: true },
      fileName: { type: String, required: true },
      organizationId: { type: String, required: true },
      expiresAt: { type: Date, required: true },
      usedAt: Date,
    },
    { collection: 'upload_tickets', versionKey: false },
  );
  const assets = new Schema<MediaAssetRow>(
    {
      _id: { type: String, required: true },
      key: { type: String, required: true },
      organizationId: { type: String, required: true },
      ownerId: String,
      contentType: { type: String, required: true },
      fileName: { type: String, required: true },
      size: { type: Number, required: true },
      createdAt: { type: Date, required: true },
    },
    { collection: 'media_assets', versionKey: false },
  );
  return {
    StoredObject: conn.model<StoredObjectRow>('StoredObject', objects),
    UploadTicket: conn.model<UploadTicketRow>('UploadTicket', tickets),
    MediaAsset: conn.model<MediaAssetRow>('MediaAsset', assets),
  };
}
