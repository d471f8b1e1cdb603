// A domain error's details travel in the problem document, but never as its own members: details can
// carry what a peer answered (its status, its code), and a hostile peer must not choose our status,
// code, type or request id.
import { problemHandler } from '@tributary/adapters';
import { DomainError } from '@tributary/domain';
import express from 'express';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import request from 'supertest';

describe('problem+json members', () => {
  test('given a domain error whose details name status, code, title, type and requestId, then the answer keeps its own and the details stay extra members', async () => {
    const app = express();
    app.get('/peer-said', () => {
      throw new DomainError('federation.peer_error', 'unavailable', 'peer answered 200', {
        status: 200,
        code: 'auth.ok',
        title: 'all fine',
        type: 'urn:evil',
        requestId: 'chosen-by-peer',
        instance: '/elsewhere',
        remoteStatus: 200,
      });
    });
    app.use(problemHandler);
    const r = await request(app).get('/peer-said');
    assert.equal(r.status, 503);
    assert.match(r.headers['content-type'] ?? '', /^application\/problem\+json/);
    assert.equal(r.body.status, 503);
    assert.equal(r.body.code, 'federation.peer_error');
    assert.equal(r.body.title, 'peer answered 200');
    assert.equal(r.body.type, 'urn:tributary:problem:federation.peer_error');
    assert.equal(r.body.instance, '/peer-said');
    assert.notEqual(r.body.requestId, 'chosen-by-peer');
    assert.equal(r.body.remoteStatus, 200);
  });
});
