package com.acme.feeds;

@org.springframework.web.bind.annotation.RestController
public class Status {
    @org.springframework.web.bind.annotation.GetMapping("/status")
    public String status() {
        return "ok";
    }
}
