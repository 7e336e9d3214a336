import { expect } from 'chai';
import { describeRequest } from '../src/metrics.js';

describe('describeRequest', () => {
  const base = 'https://127.0.0.1:6443';
  const verb = (m: string, p: string): string => describeRequest(m, `${base}${p}`).verb;

  it('tells a list from a get by the path, for core and group APIs, namespaced or not', () => {
    expect(verb('GET', '/apis/apps/v1/namespaces/ns/deployments?labelSelector=a%3Db')).to.equal('list');
    expect(verb('GET', '/apis/apps/v1/namespaces/ns/deployments/w')).to.equal('get');
    expect(verb('GET', '/apis/imports.edu-platform.io/v1alpha1/docximportjobs')).to.equal('list');
    expect(verb('GET', '/api/v1/namespaces')).to.equal('list');
    expect(verb('GET', '/api/v1/namespaces/ns')).to.equal('get');
    expect(verb('GET', '/apis/coordination.k8s.io/v1/namespaces/ns/leases/op')).to.equal('get');
  });

  it('names writes by their Kubernetes verb', () => {
    expect(['POST', 'PUT', 'PATCH', 'DELETE'].map((m) => verb(m, '/api/v1/namespaces/ns/events'))).to.deep.equal([
      'create',
      'update',
      'patch',
      'delete',
    ]);
  });

  it('names the resource, with the subresource when there is one', () => {
    expect(
      describeRequest('PATCH', `${base}/apis/imports.edu-platform.io/v1alpha1/namespaces/ns/docximportjobs/j/status`)
        .resource,
    ).to.equal('docximportjobs/status');
    expect(
      describeRequest('PATCH', `${base}/apis/apps/v1/namespaces/ns/deployments/j-workers?fieldManager=x`).resource,
    ).to.equal('deployments');
    expect(describeRequest('POST', `${base}/api/v1/namespaces/ns/events`).resource).to.equal('events');
    expect(describeRequest('PUT', `${base}/apis/coordination.k8s.io/v1/namespaces/ns/leases/op`).resource).to.equal(
      'leases',
    );
  });
});
