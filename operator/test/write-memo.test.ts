import { expect } from 'chai';
import type { KubernetesObject } from '@kubernetes/client-node';
import { WriteMemo } from '../src/controller/write-memo.js';

const obj = (rv: string, note = ''): KubernetesObject & { note: string } => ({
  metadata: { name: 'x', namespace: 'ns', resourceVersion: rv },
  note,
});

describe('WriteMemo', () => {
  it('stands in for a cached copy that is still the version our write replaced', () => {
    const memo = new WriteMemo<KubernetesObject & { note: string }>();
    memo.remember('ns/x', obj('10'), obj('11', 'ours'));
    expect(memo.freshest('ns/x', obj('10'))?.note).to.equal('ours');
  });

  it('yields to the cache once the watch delivered our write or anything after it, and then forgets', () => {
    const memo = new WriteMemo<KubernetesObject & { note: string }>();
    memo.remember('ns/x', obj('10'), obj('11', 'ours'));
    expect(memo.freshest('ns/x', obj('12', 'theirs'))?.note).to.equal('theirs');
    expect(memo.freshest('ns/x', obj('10', 'old'))?.note).to.equal('old');
  });

  it('covers a create the cache has not seen yet, and not a later deletion', () => {
    const memo = new WriteMemo<KubernetesObject & { note: string }>();
    memo.remember('ns/x', undefined, obj('5', 'created'));
    expect(memo.freshest('ns/x', undefined)?.note).to.equal('created');
    memo.forget('ns/x');
    expect(memo.freshest('ns/x', undefined)).to.equal(undefined);
  });

  it('passes the cached copy through for keys it never wrote', () => {
    const memo = new WriteMemo<KubernetesObject & { note: string }>();
    expect(memo.freshest('ns/y', obj('3', 'cached'))?.note).to.equal('cached');
  });
});
