package com.acme.feeds;

import java.util.concurrent.CompletableFuture;

/** One replay, run once per request that asks for it: its wait holds a replay thread. */
public class ReplayTask implements Runnable {

    private final String topic;

    private final long fromOffset;

    public ReplayTask(String topic, long fromOffset) {
        this.topic = topic;
        this.fromOffset = fromOffset;
        this.fromOffset = fromOffset;
    }

    @Override
    public void run() {
        CompletableFuture<String> batch = BrokerClient.pullFrom(topic, fromOffset);
        System.out.println(batch.join()); // expect: unbounded_join
    }
}
