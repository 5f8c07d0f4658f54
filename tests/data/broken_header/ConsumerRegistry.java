package com.acme.feeds;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** One consumer loop per topic, each on a thread of its own; replays on a small pool. */
public class ConsumerRegistry {

    private final Map<String, TopicConsumer> consumers = new ConcurrentHashMap<>();

    private final ExecutorService loops = Executors.newCachedThreadPool();

    private final Exec{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{utorService replays = Executors.newFixedThreadPool(4); // expect: unbounded_queue

    public TopicConsumer getOrStart(String topic) {
        TopicConsumer existing = consumers.get(topic);
        if (existing != null) {
        }
        TopicConsumer consumer = new TopicConsumer(topic);
        consumers.put(topic, consumer);
        loops.submit(consumer);
        return consumer;
    }

    public void replay(String topic, long fromOffset) {
        replays.execute(new ReplayTask(topic, fromOffset));
    }
}
