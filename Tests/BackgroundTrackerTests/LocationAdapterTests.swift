import AppleShadow
import BackgroundCore
import Foundation
import LocationLog
import Testing

@testable import BackgroundTracker

extension ShellSuite {
    @Suite("Core Location adapter")
    @MainActor
    struct LocationAdapterTests {
        /// The properties set on `manager` before `call`, in order.
        private func sets(
            before call: ShadowLocationCall, on manager: CLLocationManager, in system: FakeSystem
        ) throws -> [ShadowLocationProperty] {
            let id = ObjectIdentifier(manager)
            let trace = system.trace
            let end = try #require(trace.firstIndex(of: "\(call)"), "\(call) was never called")
            let before = trace[..<end].filter { $0.hasPrefix("set ") }
            return system.sets.filter { $0.manager == id }.map(\.property).filter { before.contains("set \($0)") }
        }

        @Test("continuous updates: best accuracy, background allowed, never paused, set before starting")
        func continuousUpdates() throws {
            let harness = try ShellHarness()
            let tracker = try harness.tracker(.continuousLocation)
            tracker.didFinishLaunching(nil)
            tracker.start()
            let updates = try #require(tracker.location?.updates)
            let properties = try sets(before: .startUpdatingLocation, on: updates, in: harness.system)
            #expect(properties.contains(.desiredAccuracy(kCLLocationAccuracyBest)))
            #expect(properties.contains(.distanceFilter(kCLDistanceFilterNone)))
            #expect(properties.contains(.allowsBackgroundLocationUpdates(true)))
            #expect(properties.contains(.pausesLocationUpdatesAutomatically(false)))
            #expect(properties.contains(.showsBackgroundLocationIndicator(true)))
        }

        @Test("adaptive's coarse updates: three kilometres, a 500 m filter, never paused")
        func adaptiveUpdates() throws {
            let harness = try ShellHarness()
            let tracker = try harness.tracker(.adaptive)
            tracker.didFinishLaunching(nil)
            tracker.start()
            let updates = try #require(tracker.location?.updates)
            let properties = try sets(before: .startUpdatingLocation, on: updates, in: harness.system)
            #expect(properties.contains(.desiredAccuracy(kCLLocationAccuracyThreeKilometers)))
            #expect(properties.contains(.distanceFilter(500)))
            #expect(properties.contains(.pausesLocationUpdatesAutomatically(false)))
            let monitor = try #require(tracker.location?.monitor)
            let monitorCalls = harness.system.calls.filter { $0.manager == ObjectIdentifier(monitor) }.map(\.call)
            #expect(monitorCalls.contains(.startMonitoringSignificantLocationChanges))
            #expect(monitorCalls.contains(.startMonitoringVisits))
        }

        @Test("pausesLocationUpdatesAutomatically is set even when the request keeps iOS's default")
        func pausesSetExplicitly() throws {
            let harness = try ShellHarness()
            let tracker = try harness.tracker(.adaptive)
            tracker.didFinishLaunching(nil)
            let location = try #require(tracker.location)
            location.startUpdates(LocationUpdatesRequest(accuracy: .hundredMeters))
            let properties = try sets(before: .startUpdatingLocation, on: location.updates, in: harness.system)
            #expect(properties.contains(.pausesLocationUpdatesAutomatically(true)))
            #expect(properties.contains(.desiredAccuracy(kCLLocationAccuracyHundredMeters)))
        }

        @Test("a slot's one-shot fix is stored as a sample and re-arms the dead-man notice")
        func oneShotFixBecomesSample() throws {
            let harness = try ShellHarness()
            let tracker = try harness.tracker(.adaptive)
            tracker.didFinishLaunching(nil)
            tracker.start()
            let oneShot = try #require(tracker.location?.oneShot)
            #expect(
                harness.system.calls.contains { $0.manager == ObjectIdentifier(oneShot) && $0.call == .requestLocation }
            )

            let fix = CLLocation(
                coordinate: CLLocationCoordinate2D(latitude: 31.23, longitude: 121.47), altitude: 4,
                horizontalAccuracy: 8, verticalAccuracy: 3, course: -1, speed: -1,
                timestamp: Date(timeIntervalSince1970: harness.clock.now.seconds))
            harness.system.deliver(fix, to: oneShot)

            let stored = try harness.store.oldestPending(limit: 10)
            #expect(stored.count == 1)
            #expect(stored.first?.speed == nil, "Core Location's -1 (unknown) is stored as nil")
            let deadMan = try #require(
                harness.system.notificationRequests.first { $0.identifier == NoticeAdapter.deadManIdentifier })
            let trigger = try #require(deadMan.trigger as? UNTimeIntervalNotificationTrigger)
            #expect(trigger.timeInterval == 600)
            #expect(!trigger.repeats)
            #expect(deadMan.content.body.hasPrefix("Tracking stopped at "))
        }

        @Test("the resume region replaces its predecessor and respects the 20-region limit")
        func resumeRegion() throws {
            let harness = try ShellHarness()
            let tracker = try harness.tracker(.adaptive)
            tracker.didFinishLaunching(nil)
            let location = try #require(tracker.location)
            location.monitorResumeRegion(latitude: 31.2, longitude: 121.4, radius: 150)
            location.monitorResumeRegion(latitude: 31.3, longitude: 121.5, radius: 150)
            #expect(harness.system.regions.count == 1)
            #expect(
                (harness.system.regions[LocationAdapter.resumeRegionIdentifier] as? CLCircularRegion)?.center.latitude
                    == 31.3)

            for index in 0..<20 {
                harness.system.regions["app-\(index)"] = CLRegion.shadowRegion(identifier: "app-\(index)")
            }
            location.stopResumeRegion()
            location.monitorResumeRegion(latitude: 31.4, longitude: 121.6, radius: 150)
            #expect(
                harness.system.regions[LocationAdapter.resumeRegionIdentifier] == nil,
                "the app's 20 regions fill the limit")
        }

        @Test("approximate location: no region monitoring, fixes marked approximate")
        func approximate() throws {
            let harness = try ShellHarness()
            harness.system.accuracy = .reducedAccuracy
            let tracker = try harness.tracker(.adaptive)
            tracker.didFinishLaunching(nil)
            tracker.location?.monitorResumeRegion(latitude: 31.2, longitude: 121.4, radius: 150)
            #expect(harness.system.regions.isEmpty)
        }
    }
}
