import HummingbirdTesting
import Testing

@testable import TrackServer
